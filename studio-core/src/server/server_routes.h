#pragma once
// The request handlers of dgem serve: wire shapes in (core/wire/ codecs), Backend calls, wire
// shapes out. Every failure becomes a JSON error reply ({"error": {"message", "type"}}) with its
// status.

#include <atomic>
#include <memory>

#include <httplib.h>

#include "core/decide/backend.h"
#include "core/server/admission.h"
#include "core/server/decision_server.h"
#include "core/wire/chat_decision.h"
#include "core/wire/openai_chat.h"

namespace core::server {

class Routes {
  public:
    Routes(std::shared_ptr<Backend> backend, const ServerOptions& options,
           AdmissionGate& admission);

    void health(httplib::Response& res);
    void chat_completions(const httplib::Request& req, httplib::Response& res);
    void systemone(const httplib::Request& req, httplib::Response& res);

  private:
    // A decision slot, or nullopt with the 503 reply already filled.
    std::optional<AdmissionGate::Ticket> admit(httplib::Response& res);

    // Per image, the soft tokens the engine reads for it (none without an engine or a tower).
    Result<std::vector<int>> image_runs(const std::vector<ImageInput>& images) const;
    // Why a decision does not fit MAX_MODEL_LEN (the prompt with its images, a thought, the
    // canvas), or nullopt when it fits or no limit applies.
    std::optional<std::string> over_model_len(const DecideRequest& request) const;

    // Why a generation does not fit MAX_MODEL_LEN (its prompt with images, max_tokens).
    std::optional<std::string> generation_over_model_len(const GenerateRequest& request) const;

    void decision_form(const nlohmann::ordered_json& body, wire::ChatDecisionCall call,
                       httplib::Response& res);
    void generative_form(const nlohmann::ordered_json& body, httplib::Response& res);
    void stream_generation(wire::GenerationCall call, AdmissionGate::Ticket ticket,
                           const std::string& model, httplib::Response& res);
    void structured_read(const nlohmann::ordered_json& body, httplib::Response& res);

    std::shared_ptr<Backend> backend_;
    const ServerOptions& options_;
    std::optional<ModelFacts> model_;  // the backend's model, where it holds one
    AdmissionGate& admission_;
};

}  // namespace core::server
