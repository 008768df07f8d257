#pragma once
// Slot readout against generative JSON: the same questions asked both ways on one Backend.
//
// The generative side asks for every answer as one JSON object ({"urgent": "yes", "team":
// "billing"}) with the allowed values listed, and parses the reply strictly: the whole reply
// must be one JSON object, every question present, no other key, every value a string naming
// one of the question's alternatives (option or level name, yes/no) or its label (A.., 1..).
// Anything else is invalid with its reasons and never repaired: a fenced reply or prose around
// the object is "not JSON at offset N". Views and the CLI build the same Comparison value from
// the two results (build_comparison), so a local and a remote run give the same table.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/decide/backend.h"
#include "core/decide/decision.h"
#include "core/evaluation/eval_runner.h"
#include "core/evaluation/eval_suite.h"
#include "core/policy/schema.h"

namespace core::compare {

// The chat messages asking a schema's questions about `state` as one JSON object, and the
// completion-token budget that answer needs (the longest allowed values of every question plus
// the JSON punctuation, with room to spare; at least 32, at most 256).
GenerateRequest generative_request(const Schema& schema, const nlohmann::json& state,
                                   uint64_t seed);
int generative_token_budget(const Schema& schema);

struct GenerativeAnswer {
    bool valid = false;
    std::vector<std::string> reasons;  // empty when valid; one per problem found
    // Per question of the schema (schema order): the index into its labels the reply chose; all
    // -1 when the reply is invalid (an invalid reply answers nothing).
    std::vector<int> chosen;
    std::string reason() const;  // reasons joined with "; " ("" when valid)
};
GenerativeAnswer parse_generative_answer(const Schema& schema, std::string_view text);

struct QuestionComparison {
    std::string id;
    std::vector<std::string> alternatives;  // what each label means
    std::vector<std::string> labels;
    int slot_winner = -1;  // -1 when the slot side failed
    double slot_probability = 0;
    double hesitation = 0;
    Hesitation hesitation_class = Hesitation::Clear;
    int generative = -1;  // -1 when the generative side gave no valid value
    bool agree = false;   // both sides answered and chose the same label
};

struct SideTiming {
    double latency_ms = 0;  // wall time of the backend call
    int passes = 0;         // decoder passes: slot = the schema's steps, generative = steps taken
};

struct Comparison {
    std::vector<QuestionComparison> questions;
    std::optional<Decision> slot;
    std::string slot_error;  // when the slot side failed
    std::optional<Generation> generation;
    std::string generation_error;  // when the generative call failed (no route, context, ...)
    GenerativeAnswer generative;   // parsed from generation->text
    SideTiming slot_timing, generative_timing;
    int compared = 0;  // questions both sides answered
    int agreeing = 0;
    std::string backend;

    double latency_ratio() const;  // generative / slot latency (0 when either is missing)
    nlohmann::json to_json() const;
};

// Turns a generative failure into the message a user sees: a missing chat route (404/405 on a
// /v1/systemone-only server) is named as such, the rest are passed through.
std::string generative_error_message(const engine::Error& error);

Comparison build_comparison(const Schema& schema, const Result<Decision>& slot, double slot_ms,
                            const Result<Generation>& generation, double generation_ms);

// Runs both sides on `backend`, slot first, then generative (progress reports the generation's
// steps and text); either side failing is recorded, never fatal.
struct CompareOptions {
    int max_tokens = 0;  // 0: generative_token_budget(schema)
};
Comparison run_comparison(Backend& backend, const DecideRequest& request,
                          const CompareOptions& options, const ProgressFn& progress,
                          const CancelToken& cancel);

// A suite run in RunMode Both (or either mode alone: the other side's figures stay empty).
// Accuracies are over the answers with an expected value; an invalid or failed generative reply
// counts as wrong. Agreement is over the answers both sides gave.
struct ModeFigures {
    std::size_t answers = 0;  // answers with an expected value, on the items this side ran
    std::size_t correct = 0;
    double accuracy = 0;
    std::optional<double> p50_s, p95_s;  // per-item latency
    double mean_passes = 0;
};
struct SuiteComparison {
    std::size_t items = 0;
    ModeFigures slot, generative;
    std::size_t generative_replies = 0;  // generate calls that returned
    std::size_t generative_valid = 0;
    double valid_share = 0;  // valid / replies
    std::size_t compared = 0, agreeing = 0;
    double agreement = 0;      // agreeing / compared
    double latency_ratio = 0;  // generative p50 / slot p50 (0 when either is missing)
    double mean_completion_tokens = 0;
    nlohmann::json to_json() const;
};
SuiteComparison compare_suite(const eval::Suite& suite,
                              const std::vector<eval::ItemRecord>& records);

// One row per item of a run: what the per-item table and charts of a suite comparison show.
struct ItemComparisonRow {
    std::string id;
    std::string tier;
    std::optional<double> slot_latency_s, generative_latency_s;
    std::optional<bool> slot_correct, generative_correct;  // all the item's answers right
    std::optional<bool> generative_valid;
    std::optional<bool> agree;  // every answer the same on both sides
    int generative_passes = 0;
    std::string reason;  // invalid reasons or the error
};
std::vector<ItemComparisonRow> comparison_rows(const eval::Suite& suite,
                                               const std::vector<eval::ItemRecord>& records);

}  // namespace core::compare
