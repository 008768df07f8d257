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
#include "core/server/metrics.h"
#include "core/wire/chat_decision.h"
#include "core/wire/openai_chat.h"

namespace core::server {

class Routes {
  public:
    Routes(std::shared_ptr<Backend> backend, const ServerOptions& options, AdmissionGate& admission,
           ServerMetrics& metrics);

    void health(httplib::Response& res);
    void chat_completions(const httplib::Request& req, httplib::Response& res);
    void systemone(const httplib::Request& req, httplib::Response& res);

    // A decision run for a route: checked against MAX_MODEL_LEN (a `bad_input_status` reply
    // of `bad_input_type` when it does not fit), admitted (503 when refused) and decided (a
    // backend failure's reply). nullopt when the reply is already filled.
    struct DecisionRun {
        Decision decision;
        double queue_wait_ms = 0;  // waiting for a decision slot
        double decide_ms = 0;      // the backend's decision
    };
    std::optional<DecisionRun> run_decision(
        const DecideRequest& request, httplib::Response& res, int bad_input_status = 400,
        const std::string& bad_input_type = "invalid_request_error");

    const std::shared_ptr<Backend>& backend() const { return backend_; }
    const ServerOptions& options() const { return options_; }

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
    ServerMetrics& metrics_;
};

}  // namespace core::server
