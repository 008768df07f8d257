#pragma once
// The one interface the UI and the CLI see. Calls block and are meant for worker threads
// (BackendRunner in core/endpoints/backend_runner.h runs them off the UI thread and reports back
// through Qt signals); progress arrives through the callback, cancellation through the token.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/decide/decision.h"
#include "core/images/images.h"
#include "engine/cancel.h"

namespace engine {
class Tokenizer;
}

namespace core {

using engine::CancelToken;
class RowReader;  // core/decide/row_reader.h

struct DecideRequest {
    Schema schema;
    // The document(s) the questions are about, with its keys in the order they were written:
    // the prompt shows the state as text, so a reordered object would change the read.
    nlohmann::ordered_json state;
    uint64_t seed = 0;
    // What the questions are about besides the state (several: video frames), in order; on the
    // wire as data: URIs (core/images/images.h).
    std::vector<ImageInput> images = {};  // "= {}": brace-initialised requests may leave it out
};

struct ChatMessage {
    std::string role;  // system, developer, user, assistant
    std::string content;
};

struct GenerateRequest {
    std::vector<ChatMessage> messages;
    int max_tokens = 256;
    uint64_t seed = 0;
    std::optional<double> temperature;
    // Wall-time bound in seconds (0: none); a generation cut by it ends with finish_reason
    // "time_limit" (backends that cannot bound time ignore it).
    double time_limit_s = 0;
    // Images the first user message carries before its text (as a decision's), in order.
    std::vector<ImageInput> images = {};
};

struct Progress {
    std::string stage;       // "loading model", "encoding", "decoding", "waiting for server", ...
    double fraction = -1;    // 0..1, or -1 when unknown
    std::string text_delta;  // streamed generation text, if any
};
using ProgressFn = std::function<void(const Progress&)>;

struct HealthInfo {
    bool ready = false;
    std::string server;  // what the server calls itself
    std::string version;
    std::string model;
    std::string device;
    std::string kind;  // detected protocol: "dgem", "systemone", "vllm", "local"
    nlohmann::json raw;
};

// What the model behind a backend is, where the backend holds it in this process (the local
// engine): what dgem serve checks requests against and reads structured reads with.
struct ModelFacts {
    std::string name;
    int canvas_length = 0;
    int vocab_size = 0;
    int max_context = 0;
    const engine::Tokenizer* tokenizer = nullptr;  // owned by the backend
};

class Backend {
  public:
    virtual ~Backend() = default;
    virtual std::string describe() const = 0;  // for status bars and reports; never a secret
    virtual Result<Decision> decide(const DecideRequest& request, const ProgressFn& progress,
                                    const CancelToken& cancel) = 0;
    virtual Result<Generation> generate(const GenerateRequest& request, const ProgressFn& progress,
                                        const CancelToken& cancel) = 0;
    virtual Result<HealthInfo> health(const CancelToken& cancel) = 0;
    // How many soft tokens this backend's model reads for an image of this size, where it can
    // say without a request (the local engine with a vision tower); nullopt otherwise.
    virtual std::optional<int> image_soft_tokens(int width, int height) const {
        (void)width;
        (void)height;
        return std::nullopt;
    }
    // The model's facts, where this backend holds the model (nullopt: a remote server's).
    virtual std::optional<ModelFacts> model_facts() const { return std::nullopt; }
    // Reads canvas rows directly, where this backend holds the model (nullptr otherwise): the
    // structured-read route of dgem serve reads a caller's canvas through it.
    virtual RowReader* row_reader() { return nullptr; }
};

}  // namespace core
