#pragma once
// OpenAI's chat completions as a generation (PROTOCOLS section 2's generative form): messages
// in, a completion or a stream of server-sent chunks out, with usage (plus our servers'
// diffusion_steps). The remote backends' generate() and dgem serve's generative route both
// speak it through here.

#include <functional>
#include <string>
#include <string_view>

#include "core/decide/backend.h"
#include "core/wire/chat_messages.h"

namespace core::wire {

// Client: the request body (images open the first user message). An error when images have no
// user message to ride on.
Result<ojson> generation_request(const GenerateRequest& request, const std::string& model,
                                 bool stream);

// Client: the text, finish reason, model and usage of a non-streamed completion. Errors name
// `where`.
Result<Generation> generation_from_reply(const json& completion, const std::string& where);

// Client: folds a server-sent event stream into a Generation as its bytes arrive: text deltas
// (reported through `on_text`), the model, usage and finish reason; an error event; [DONE].
class GenerationStream {
  public:
    explicit GenerationStream(std::function<void(const std::string&)> on_text)
        : on_text_(std::move(on_text)) {}
    void feed(std::string_view bytes);
    Generation& generation() { return g_; }
    bool done() const { return done_; }
    const std::string& error() const { return error_; }  // the server's error event, if any

  private:
    void event(const std::string& data);

    std::function<void(const std::string&)> on_text_;
    std::string pending_;  // bytes not yet split into lines
    Generation g_;
    std::string error_;
    bool done_ = false;
};

// Server: a generation request. `max_tokens_cap` is what a request gets without asking (it may
// ask for less or, within the request checks, more); the time limit is the caller's.
struct GenerationCall {
    GenerateRequest request;
    bool stream = false;
    bool include_usage = false;  // stream_options.include_usage
};
Result<GenerationCall> generation_call(const ojson& body, int max_tokens_cap);

// Server: a completion's finish reason on the wire (OpenAI's "stop" or "length"; a generation
// cut by its time limit ends with "length", as one cut by max_tokens does).
std::string wire_finish(const std::string& reason);
// Server: OpenAI's usage object, plus diffusion_steps: the decoder passes the generation took.
ojson generation_usage(const Generation& g);
// Server: the completion of a non-streamed generation.
ojson generation_reply(const Generation& g, const std::string& id, int64_t created,
                       const std::string& model);
// Server: one streamed chunk (a delta and a finish reason, null until the last), the usage
// chunk, and the stream's error event.
ojson generation_chunk(const std::string& id, int64_t created, const std::string& model,
                       const ojson& delta, const ojson& finish);
ojson generation_usage_chunk(const Generation& g, const std::string& id, int64_t created,
                             const std::string& model);
ojson stream_error_event(const std::string& message);

}  // namespace core::wire
