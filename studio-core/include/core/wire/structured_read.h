#pragma once
// vLLM's diffusion structured reads (PROTOCOLS section 5): a chat completion carrying one seeded
// canvas (vllm_xargs.diffusion_seed_canvas) read in one pass, answered with per-position
// logprobs over the requested label ids ("token_id:<n>"). The client (the vLLM structured-read
// row reader) and dgem serve's route both speak it through here.

#include <map>
#include <string>
#include <vector>

#include "core/decide/backend.h"
#include "core/decide/read_stats.h"
#include "core/wire/chat_messages.h"

namespace core::wire {

// One structured read, as typed values.
struct StructuredRead {
    std::string model;
    std::vector<ChatMessage> messages;
    std::vector<int32_t> canvas_ids;  // the seeded canvas, `width` ids
    int max_steps = 1;
    std::vector<int32_t> label_ids;  // the ids to return logprobs for
    bool thinking = false;           // chat_template_kwargs.enable_thinking
    bool constrained = true;         // logprobs normalised over the label ids
    int top_logprobs = 20;
};

// Client: the request body.
ojson structured_read_request(const StructuredRead& read);

// Server: a request's read, checked against the served model (token ids below `vocab_size`, a
// canvas of at most `canvas_length`, one decoder step). Errors (400) name the field.
Result<StructuredRead> structured_read_call(const ojson& body, int vocab_size, int canvas_length);

// What one read returned at each canvas position (server side, before it becomes JSON).
struct PositionLogprobs {
    int32_t chosen = 0;                           // constrained: the best label; else argmax
    std::optional<double> chosen_logprob;         // when the chosen id is a label
    std::vector<std::pair<int32_t, double>> top;  // best first
};
struct StructuredReadReply {
    std::string model;
    std::string text;  // the chosen ids decoded
    std::vector<PositionLogprobs> positions;
    int prompt_tokens = 0;
    int cached_tokens = 0;
};

// Server: every position's logprobs from the reader's slot reads (one per position, over the
// sorted distinct label ids), normalised over the labels when constrained.
std::vector<PositionLogprobs> position_logprobs(const StructuredRead& read,
                                                const std::vector<SlotRead>& slots);
// Server: the reply body.
ojson structured_read_reply(const StructuredReadReply& reply, const std::string& id,
                            int64_t created);

// Client: a reply's per-position top logprobs (token id -> logprob) and prompt usage. Errors
// name `where`.
struct StructuredReadResult {
    std::vector<std::map<int32_t, double>> positions;
    PromptUsage usage;
};
Result<StructuredReadResult> structured_read_from_reply(const json& reply,
                                                        const std::string& where);

}  // namespace core::wire
