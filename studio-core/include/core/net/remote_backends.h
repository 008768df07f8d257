#pragma once
// Backends that talk to servers (PROTOCOLS sections 1 and 5), all returning the same Decision
// and Generation values as the local engine:
//  - DgemChatBackend: the structured server's chat-completions decision form (system = schema
//    JSON, user = state JSON; the reply's content is {"answers", "diagnostics"});
//  - SystemOneBackend: POST /v1/systemone (Jev's request shape);
//  - VllmStructuredBackend: vLLM directly with the structured-read extension; the decision runs
//    here through the decide module (core/decide/plan_executor.h) with the tokenizer, one
//    request per canvas row;
//  - OpenAiChatBackend: any OpenAI-compatible server, generation only (SSE streaming).
// Every backend generates through OpenAI chat completions and reports health from /health. The
// bodies are the wire codecs' (core/wire/): the same code dgem serve answers with.
// Timings: network_ms = wall time minus the server's Server-Timing decide duration.

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/decide/backend.h"
#include "core/net/http_client.h"
#include "engine/tokenizer.h"

namespace core {

namespace wire {
class GenerationStream;
}

enum class RemoteProtocol { Chat, SystemOne, Vllm, OpenAi, Auto };
std::optional<RemoteProtocol> parse_remote_protocol(
    std::string_view text);  // chat|systemone|vllm|openai|auto
std::string_view to_string(RemoteProtocol protocol);

struct RemoteOptions {
    std::string
        url;  // base URL: "http://host:8080/v1" (Vertex "...:rawPredict" and "/invoke" URLs too)
    std::string model;  // sent as "model"; empty: the server's default
    TransportOptions transport;
    bool stream = false;      // generation: ask for SSE and report text deltas
    int canvas_length = 256;  // vLLM: the served canvas length
};

// The chat-completions endpoint for a base URL (Vertex endpoints normalised as dgem does).
std::string chat_completions_url(const std::string& base_url);

// Shared by every remote backend: generation through OpenAI chat completions, and health.
class RemoteBackend : public Backend {
  public:
    explicit RemoteBackend(RemoteOptions options, std::string kind);
    std::string describe() const override;
    Result<Generation> generate(const GenerateRequest& request, const ProgressFn& progress,
                                const CancelToken& cancel) override;
    Result<HealthInfo> health(const CancelToken& cancel) override;
    const RemoteOptions& options() const { return options_; }

    // POSTs JSON, and turns a non-2xx reply into an error naming the URL, status and message.
    Result<HttpResponse> post(const std::string& url, const std::string& body,
                              const CancelToken& cancel,
                              const HttpTransport::DataFn& on_data = {}) const;

  protected:
    RemoteOptions options_;
    std::string kind_;
    HttpTransport transport_;

  private:
    Result<Generation> parsed_generation(const HttpResponse& r, const std::string& url) const;
    Result<Generation> streamed_generation(const HttpResponse& r, const std::string& url,
                                           wire::GenerationStream& stream,
                                           const ProgressFn& progress) const;
};

class DgemChatBackend final : public RemoteBackend {
  public:
    explicit DgemChatBackend(RemoteOptions options)
        : RemoteBackend(std::move(options), "dgem chat") {}
    Result<Decision> decide(const DecideRequest& request, const ProgressFn& progress,
                            const CancelToken& cancel) override;
};

class SystemOneBackend final : public RemoteBackend {
  public:
    explicit SystemOneBackend(RemoteOptions options)
        : RemoteBackend(std::move(options), "systemone") {}
    Result<Decision> decide(const DecideRequest& request, const ProgressFn& progress,
                            const CancelToken& cancel) override;
};

class VllmStructuredBackend final : public RemoteBackend {
  public:
    VllmStructuredBackend(RemoteOptions options, engine::Tokenizer tokenizer)
        : RemoteBackend(std::move(options), "vllm structured"), tokenizer_(std::move(tokenizer)) {}
    Result<Decision> decide(const DecideRequest& request, const ProgressFn& progress,
                            const CancelToken& cancel) override;

  private:
    engine::Tokenizer tokenizer_;
};

class OpenAiChatBackend final : public RemoteBackend {
  public:
    explicit OpenAiChatBackend(RemoteOptions options)
        : RemoteBackend(std::move(options), "openai chat") {}
    Result<Decision> decide(const DecideRequest& request, const ProgressFn& progress,
                            const CancelToken& cancel) override;
};

// GET /health and guess what is serving: the dgem structured server or `dgem serve` (chat),
// a System One server, or vLLM (whose /health has an empty body).
Result<RemoteProtocol> detect_protocol(const RemoteOptions& options, const CancelToken& cancel);

// The backend for a protocol (Auto detects first). Vllm needs the tokenizer.
Result<std::unique_ptr<Backend>> make_remote_backend(RemoteProtocol protocol, RemoteOptions options,
                                                     const engine::Tokenizer* tokenizer,
                                                     const CancelToken& cancel = {});

}  // namespace core
