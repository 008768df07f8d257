#pragma once
// Bracket tournaments: how a choice question with more options than one read labels (up to 255)
// is read, as dgem's Decision Index adapter reads it (pkg/decisionindex). Round 1 splits the
// options into balanced brackets of at most bracket_size and reads each bracket as a question of
// its own, all brackets on the canvas rows of one prompt; the leading options of every bracket
// meet in a final read; the bracket and final distributions are fused into one distribution over
// every option. Catch-all options ("none of these") may sit out Round 1 and join the final
// (Question::catch_all, CatchAllMode).
//
// These are the pure parts (splitting, choosing finalists, fusing); the plan executor
// (core/decide/plan_executor.h) builds the rounds' schemas from them and reads them.

#include <map>
#include <string>
#include <vector>

#include "core/policy/schema.h"

namespace core {

inline constexpr int kFinalistsPerBracket = 2;
// Round 1's brackets on one canvas row (dgem's MaxSlotsPerPass); more take further rows.
inline constexpr int kBracketsPerCanvas = 8;

// Splits items (in order) into ceil(n / max_size) brackets whose sizes differ by at most one, so
// that no bracket holds a single option (n >= 2; max_size is at least 3, since brackets of 2
// would leave one of 1 for an odd n).
std::vector<std::vector<int>> balanced_brackets(const std::vector<int>& items, int max_size);

// One wide question's tournament, in option indices of the question.
struct Tournament {
    int question = 0;            // index into the schema's questions
    std::vector<int> catch_all;  // options that sit out Round 1 (mode final, both, verify)
    std::vector<std::vector<int>> brackets;  // Round 1: every other option, in option order
    CatchAllMode mode = CatchAllMode::Final;
    int label_capacity = kMaxAlternatives;  // of one read with the schema's label set
};

Tournament plan_tournament(const Question& question, int question_index);

// The options a bracket's read lists: its own, then (mode both) the catch-alls.
std::vector<int> bracket_read_options(const Tournament& t, size_t bracket);

// The final's options: the kFinalistsPerBracket likeliest options of each bracket by its Round-1
// distribution (over bracket_read_options), at most as many as the final's read may hold (the
// capacity less 2, less the catch-alls that join it), the likeliest kept; in option order; then
// the catch-alls when the mode sends them to the final.
std::vector<int> choose_finalists(const Tournament& t,
                                  const std::vector<std::vector<double>>& bracket_p);

// Verify mode: the final's distribution over its options and a verify read over {the final's
// winner} + catch-alls, merged into one distribution over the final's options + catch-alls.
// Returns the options and their probabilities.
struct Scored {
    std::vector<int> options;
    std::vector<double> p;
};
Scored merge_verify(const std::vector<int>& final_options, const std::vector<double>& final_p,
                    const std::vector<int>& verify_options, const std::vector<double>& verify_p);

// One distribution over all n options from the brackets' Round-1 distributions (over
// bracket_read_options) and the final's (over final_options, catch-alls included):
//   P(bracket b)   = share of the final's mass on b's finalists (the final is the evidence for
//                    which bracket wins);
//   non-finalist o = P(b) * p_b(o) / (b's Round-1 mass over its own options);
//   finalist f     = p_final(f) * (1 - the non-finalists' mass).
// Every option is positive, the sum is 1 and the final's winner is the argmax (a non-finalist
// is held just below it). The top probability comes from the reads, never a constant.
std::vector<double> fuse_tournament(const Tournament& t,
                                    const std::vector<std::vector<double>>& bracket_p,
                                    const std::vector<int>& final_options,
                                    const std::vector<double>& final_p, int n_options);

// Round 1 of a schema with tournaments: its narrow questions as they are and each wide question's
// brackets in its place (a bracket's question reads bracket_read_options), read together on
// canvas rows of at most kBracketsPerCanvas questions (or the schema's canvas_questions).
struct RoundOne {
    Schema schema;
    std::vector<int> narrow;  // per Round 1 question: its schema index, or -1 for a bracket
    struct Wide {
        Tournament tournament;
        std::vector<int> brackets;  // the brackets' indices among Round 1's questions
    };
    std::vector<Wide> wide;
};
bool has_tournament(const Schema& schema);
RoundOne round_one(const Schema& schema);
// How many questions a tournament round puts on one canvas row.
int round_canvas_questions(const Schema& schema);

// The final round's schema: each tournament question (in schema order) over its finalists
// (option indices, as choose_finalists gives them), under its own id.
Schema final_round(const Schema& schema, const RoundOne& one,
                   const std::vector<std::vector<int>>& finalists);
// A decision's finalists by name (diagnostics.wide: question id -> option names) as option
// indices per tournament of `one`; empty when a tournament has none recorded.
std::vector<std::vector<int>> finalists_by_name(
    const Schema& schema, const RoundOne& one,
    const std::map<std::string, std::vector<std::string>>& names);

// A question over some of `question`'s options (a bracket, the final, a verify read), read jointly
// with the rest of its round and labelled from A with the question's label set.
Question sub_question(const Question& question, std::string id, const std::vector<int>& options);
// A schema with `schema`'s settings and no questions: a round's, to which its questions are added.
Schema round_schema(const Schema& schema);
// The id of a bracket's question: "{id}_b01", "{id}_b02", ...
std::string bracket_id(const std::string& question_id, size_t bracket);

}  // namespace core
