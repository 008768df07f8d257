#pragma once
// What a decision or a generation returns, the same for every backend (local or remote), so
// views, compare, bench and reports never care where it ran.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/policy/schema.h"

namespace core {

enum class Hesitation { Clear, SomewhatUnsure, VeryUnsure };
std::string_view to_string(Hesitation h);  // "Clear", "Somewhat unsure", "Very unsure"

struct Timings {
    double encode_ms = 0;
    double decode_ms = 0;
    double readout_ms = 0;
    double network_ms = 0;  // remote backends: wall time minus the server's reported time
    // Time the call waited behind other calls for the same engine (the local engine runs one at
    // a time): part of total_ms, but not of this call's own latency.
    double queue_ms = 0;
    double total_ms = 0;
};

// One question's result, aggregated over n reads (PROTOCOLS section 4).
struct QuestionOutcome {
    std::string id;
    QuestionType type = QuestionType::Noul;
    std::vector<std::string> labels;            // yes/no, A.., 1..
    std::vector<std::string> alternatives;      // what each label means
    std::vector<std::vector<double>> per_read;  // p_k over labels, one row per read
    // The entropy (nats) of each read's label distribution, in read order: from per_read where
    // the reads are known, else as a server's diagnostics gave them (a multi-read reply carries
    // the means and these, not the reads); empty when neither is known.
    std::vector<double> read_entropy;
    std::vector<double> mean;  // average of per_read
    int winner = 0;            // index into labels
    double confidence = 0;
    double entropy = 0;                   // nats
    double hesitation = 0;                // entropy / ln |labels|
    std::optional<double> stderr_winner;  // only with n > 1
    // Per label: the standard error of its mean over the reads (empty with one read); the
    // winner's entry equals stderr_winner.
    std::vector<double> stderr_labels;
    double agreement = 1;         // share of reads whose own argmax is the winner
    int pos = -1;                 // slot position in its canvas (diagnostics)
    double label_mass = 0;        // mean over reads
    bool argmax_is_label = true;  // in every read
    bool isolated = false;
    // Staged reads: the stage (0-based) the question was read in, or why it was not read (an
    // unmet ask_if). A skipped question has labels and alternatives but no reads, mean or winner.
    int stage = 0;
    bool skipped = false;
    std::string skip_because;              // the question its condition names
    std::optional<std::string> skip_was;   // that question's answer name (nullopt: skipped)
    std::vector<std::string> skip_wanted;  // the answer names that would have asked it
    // Stage-2 cascade (core/decide/cascade.h): whether this question went to stage 2, the
    // answer stage 1 gave (label index), stage 2's answer where it gave one (else why not), and
    // each stage's latency.
    struct Escalation {
        bool escalated = false;
        int stage1_winner = -1;
        double stage1_confidence = 0;
        double stage1_entropy = 0;
        std::vector<double> stage1_mean;  // stage 1's distribution (the mean is replaced)
        std::optional<int> stage2_winner;
        std::string stage2_error;  // why stage 1's answer was kept
        std::string stage2_text;   // what stage 2 replied (trimmed)
        double stage1_ms = 0;
        double stage2_ms = 0;
    };
    std::optional<Escalation> escalation;  // set for every question of a cascaded decision
    Hesitation hesitation_class() const;
};

// What the model wrote before the read (schema "think": N).
struct Thought {
    std::string text;
    std::vector<int32_t> ids;  // the thought's token ids, where the backend knows them (local)
    int tokens = 0;            // thought tokens written (at most the schema's think)
    bool closed = false;       // the model ended the thought itself (<channel|>) within the budget
    int passes = 0;  // denoising passes the thought took (0 when the backend does not say)
    double ms = 0;
};

// How the decision chose its number of reads (schema "samples"): a fixed count, or "auto" with
// one read per group first and auto_max reads where the first hesitated.
struct SamplesPolicy {
    bool automatic = false;
    int count = 1;  // fixed: reads per group
    int max = 0;    // auto: reads per group when extended
    double threshold = 0;
    std::vector<bool> extended;                        // auto: per group read, in read order
    std::map<std::string, double> first_read_entropy;  // auto: per question id, nats
};

// Whether a staged decision's later stages read after the earlier answers.
enum class Conditioning {
    Unstaged,    // a single-pass decision: not reported
    SinglePass,  // staged schema, but every question read in one stage (null on the wire)
    Prefill,     // later stages read after the earlier stages' answers
};

// How a choice question wider than 26 options was read: in one read with a wide label set, or
// as a bracket tournament (core/decide/tournament.h).
struct WideRead {
    std::string strategy;  // "az_aa", "az_lower" or "tournament"
    int options = 0;
    // Tournament: Round 1's brackets and the final's options (option names), the catch-all mode
    // and the canvas rows read for this question in all rounds.
    std::vector<std::vector<std::string>> brackets;
    std::vector<std::string> finalists;
    std::string catch_all;  // "off", "final", "both", "verify"
    int reads = 0;
    int rounds = 0;  // 2, or 3 with a verify read
};

// What a stage-2 cascade did for the decision as a whole (per question: QuestionOutcome's
// escalation).
struct CascadeRecord {
    CascadeMode mode = CascadeMode::Off;
    double threshold = 0;
    std::string judge;  // the stage-2 endpoint, as its backend describes itself (never a secret)
    int escalated = 0;  // questions sent to stage 2
    int replaced = 0;   // of those, answered by stage 2
};

// What a decision learned beyond its answers and counts, as the decide module or a server's
// diagnostics report it. Unset fields are not known (a server that does not say).
struct DecisionDiagnostics {
    std::optional<SamplesPolicy> samples_policy;
    Conditioning conditioning = Conditioning::Unstaged;
    std::optional<uint64_t> seed;
    std::optional<SeedToken> seed_token;
    std::string engine;         // "local": the decision ran on an engine in this process
    std::string entropy_basis;  // "labels": entropies are of the label distributions
    // The temperature applied (core/decide/read_stats.h): one T for every question, or per
    // question type ("noul", "choice", "score") where the policy gave one per type.
    std::optional<double> temperature;
    std::map<std::string, double> temperature_by_type;
    std::map<std::string, double> temperature_by_question;  // the policy's per-question T
    // A stage-2 cascade ran (core/decide/cascade.h): its mode, threshold and judge.
    std::optional<CascadeRecord> cascade;
    std::map<std::string, WideRead> wide;  // per question id, for questions over 26 options
};

struct Decision {
    std::vector<QuestionOutcome> questions;
    int samples = 1;  // reads per question
    Layout layout = Layout::DocumentFirst;
    int prompt_tokens = 0;
    // Of prompt_tokens, those the engine took from its prompt-prefix cache instead of encoding
    // them (the most any group read reused; a remote backend takes it from the reply's usage
    // cached_tokens; 0 when the backend does not say).
    int cached_prompt_tokens = 0;
    int reads = 0;         // canvas rows the backend decoded
    int canvas_width = 0;  // the widest group's canvas (0 when the backend does not say)
    int read_groups = 0;   // groups read separately (0 when the backend does not say)
    // Decoder passes of the reads (one per group read, more for "auto" extensions and stages;
    // 0 when the backend does not say); a thought's passes are its own.
    int passes = 0;
    std::vector<std::vector<std::string>> stages;  // question ids read per stage (staged reads)
    std::optional<Thought> thought;
    Timings timings;
    std::string model;
    std::string backend;  // "local cpu", "dgem chat http://...", ...
    DecisionDiagnostics diagnostics;
};

struct Generation {
    std::string text;
    int passes = 0;  // decoder passes (denoising steps) it took
    int completion_tokens = 0;
    int prompt_tokens = 0;
    Timings timings;
    std::string finish_reason;  // "stop", "length", "time_limit", "cancelled"
    std::string model;
};

}  // namespace core
