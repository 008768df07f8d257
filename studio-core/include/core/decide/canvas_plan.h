#pragma once
// The canvas plan of a decision (PROTOCOLS section 3), built as the vLLM structured server (with
// dgem's serving patch) builds it:
//  - questions are split into read groups: a question that reads alone (its own "alone", or the
//    schema's isolate mode) is a group of its own, the others run together in declaration order;
//  - each group has its own prompt, which lists only the group's questions (the question text),
//    laid out document_first (one user turn: <user_text> state, <instructions> questions) or
//    schema_first (system = questions, user = state), chat-templated with thinking off;
//  - each group has its own answer template: the empty thought block, then "id: label" lines
//    (more than ten questions in the schema: "{id}{label}" joined by spaces), then <turn|>,
//    padded with <pad> to the width (the smallest multiple of 16 that holds it, at most the
//    served canvas length);
//  - slots are found by substituting each label (each must change exactly one token, at one
//    position per question);
//  - every read (noise draw) of a group is one canvas row: the template with each slot
//    overwritten by a seeded uniform id in [0, 262144) (seed_token random) or <pad> (fixed).
//    Group k draws from seed + 104729 k; its draw j from that plus 7919 j; the extra reads of
//    the "auto" policy from that plus 1 + 7919 j. The random ids are CPython's
//    random.Random(seed).randrange(262144), one per slot in order (MT19937 seeded by
//    init_by_array), so canvases match the reference server's bit for bit.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/decide/backend.h"
#include "core/decide/stages.h"
#include "core/policy/schema.h"
#include "engine/engine.h"
#include "engine/tokenizer.h"

namespace core {

using engine::TokenId;

inline constexpr int kCanvasStep = 16;              // widths are multiples of this
inline constexpr int kVocabSize = 262144;           // noise ids are drawn from [0, kVocabSize)
inline constexpr int kMaxLabelIds = 128;            // vLLM's logprob_token_ids limit per read
inline constexpr uint64_t kDrawSeedStep = 7919;     // seed step between noise draws
inline constexpr uint64_t kGroupSeedStep = 104729;  // seed step between read groups
inline constexpr int kIsolateAutoMax = 3;           // "auto" isolates yes/no questions in 2..3
inline constexpr int kIsolateMaxQuestions = 8;      // isolation applies to requests of 2..8

struct PlanOptions {
    std::optional<Layout> layout;  // overrides the schema's
    int canvas_length = 256;       // the served canvas length
    uint64_t seed = 42;            // the structured server's default seed
    std::optional<Samples> samples;
    std::optional<SeedToken> seed_token;
    std::optional<Isolate> isolate;
    int max_label_ids = kMaxLabelIds;  // distinct label ids one read may carry
    // One stage of a multi-pass decision (core/decide/stages.h): the questions it reads (empty:
    // every question, or the first stage's of a staged schema), the prompt all its groups share
    // with the text its canvases start with (unset: the staged prompt without a thought), and how
    // many groups earlier stages read (group seeds go on from there).
    std::vector<int> questions;
    std::optional<ReadPrefix> prefix;
    int first_group = 0;
    // Images (single-pass plans): per image, how many soft tokens it takes; each becomes a run
    // boi, image_id x n, eoi at the start of the user turn, as the chat template places images.
    std::vector<int> image_runs;
    // At most this many joint questions per canvas row (0: the schema's canvas_questions, where
    // 0 is one canvas for all); a longer run is split into groups of this many.
    int canvas_questions = 0;
    // The answer layout's "more than ten questions" form, when the schema read is derived from
    // another (a tournament's rounds answer as the policy's schema would).
    std::optional<bool> indexed;
    TokenId boi_id = 255999, image_id = 258880, eoi_id = 258882;
};

// Where a rendered prompt takes its images: right after its first "<|turn>user" line, as the chat
// template places them (0 when it has no user turn).
size_t image_run_position(std::span<const TokenId> prompt_ids, const engine::Tokenizer& tokenizer);

// Puts the image runs into a rendered prompt at image_run_position().
void insert_image_runs(std::vector<TokenId>& prompt_ids, const engine::Tokenizer& tokenizer,
                       const PlanOptions& options);

struct PlanSlot {
    std::string question;
    int question_index = 0;  // into Schema::questions
    int pos = 0;             // position inside the group's canvas
    std::vector<std::string> labels;
    std::vector<TokenId> label_ids;
};

struct ReadGroup {
    std::vector<int> questions;  // indices into Schema::questions, in order
    bool isolated = false;       // one question reading alone
    uint64_t seed = 0;           // seed + 104729 * group index
    std::string question_text;   // what the prompt lists
    std::vector<ChatMessage> messages;
    std::vector<TokenId> prompt_ids;
    std::vector<TokenId> canvas_ids;  // template (first labels), <turn|>, pads: `width` ids
    int template_length = 0;          // thought block + answer tokens, before <turn|>
    int width = 0;
    std::vector<PlanSlot> answer_slots;  // one per question, in order
    std::vector<TokenId> label_union;    // sorted distinct label ids of the group's slots
};

// One canvas row: a noise draw of one group.
struct PlanRow {
    int group = 0;
    int draw = 0;  // 0-based draw index within its group
    uint64_t seed = 0;
    bool extension = false;  // an extra read of the "auto" policy
    std::vector<TokenId> canvas_ids;
};

struct CanvasPlan {
    Layout layout = Layout::DocumentFirst;
    Isolate isolate = Isolate::Auto;  // as requested
    SeedToken seed_token = SeedToken::Random;
    Samples samples;
    double auto_threshold = 0.1;
    int auto_max = 4;
    bool indexed = false;  // more than ten questions: "{id}{label}" joined by spaces
    uint64_t seed = 42;
    int canvas_length = 256;
    std::string state_text;
    // A multi-pass decision's stage: every group reads after the shared prefix, its canvas
    // without a thought block of its own. `thought_pending`: the schema thinks first, and this
    // plan (built without the thought) shows the canvas the thought will precede.
    bool staged = false;
    bool thought_pending = false;
    std::vector<ReadGroup> groups;
    std::vector<PlanRow> rows;  // the first reads: n per group, or one per group with "auto"
};

Result<CanvasPlan> build_plan(const Schema& schema, const nlohmann::ordered_json& state,
                              const engine::Tokenizer& tokenizer, const PlanOptions& options);

// The extra reads of the "auto" policy for one group (auto_max - 1 rows).
std::vector<PlanRow> extension_rows(const CanvasPlan& plan, int group);
// The group's canvas with its slots overwritten by draw `seed`'s noise (or <pad> when fixed).
std::vector<TokenId> noise_canvas(const ReadGroup& group, uint64_t seed, SeedToken seed_token);
// The first `count` values of CPython's random.Random(seed).randrange(262144).
std::vector<TokenId> noise_ids(uint64_t seed, int count);

// One engine request per group: the group's prompt and the given rows (all of that group).
engine::SlotReadRequest to_request(const CanvasPlan& plan, int group,
                                   const std::vector<PlanRow>& rows);
// The plan's first reads, one request per group that has rows.
std::vector<engine::SlotReadRequest> to_requests(const CanvasPlan& plan);

// The texts the prompt is made of.
std::string question_text(const Schema& schema, const std::vector<int>& questions, bool indexed);
std::string answer_text(const Schema& schema, const std::vector<int>& questions,
                        const std::vector<int>& label_choice, bool indexed);
// The state as the user turn carries it: a string as it is, anything else as Python's
// json.dumps(state, ensure_ascii=False) writes it (", " and ": " separators).
std::string state_text(const nlohmann::ordered_json& state);
std::vector<ChatMessage> prompt_messages(Layout layout, const std::string& question_text,
                                         const std::string& state_text);

// {"prompt_ids", "canvas_ids", "width", "layout", "reads", "slots", "groups", ...}
nlohmann::json plan_json(const CanvasPlan& plan, const Schema& schema);

}  // namespace core
