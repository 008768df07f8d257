#pragma once
// The decision schema (PROTOCOLS section 2) as value types. Parsing and validation live in
// schema.cpp; every rule's error names the question and what is accepted.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/result.h"

namespace core {

using engine::Error;
using engine::Result;

enum class QuestionType { Noul, Choice, Score };

// The labels one read gives a choice or score question (dgem's "labels" schema key; each label is
// one token of the Gemma vocabulary after "id: "): az reads up to 26 alternatives (A-Z), az_aa
// up to 52 (A-Z, then AA-AZ), az_lower up to 52 (A-Z, then a-z).
enum class LabelSet { AZ, AZ_AA, AZ_Lower };
// Where a wide choice question's catch-all options ("none of these", "out of scope") play: off
// (in Round 1 like any option), final (only in the final), both (in every bracket and the
// final), verify (a final over the real options, then a read of its winner against them).
enum class CatchAllMode { Off, Final, Both, Verify };

struct Option {
    std::string name;
    std::string description;
};

struct Question {
    std::string id;
    QuestionType type = QuestionType::Noul;
    std::string instructions;
    // noul: "true"/"false" -> description; score: level name -> description (optional).
    std::map<std::string, std::string> criteria;
    std::vector<Option> options;      // choice
    std::vector<std::string> levels;  // score, lowest first
    std::vector<std::string> depends_on;
    std::string ask_if;  // compact JSON text of {question id: [answer names]}, or empty
    bool alone = false;
    // "alone" was given explicitly (true or false); when false the schema's isolate mode decides,
    // and an explicit "alone": false keeps the question in the joint read whatever the mode.
    bool alone_explicit = false;
    // Wide choice questions (more options than one read's label set holds) are read as a
    // bracket tournament (core/decide/tournament.h). The schema's settings, copied here so
    // that a question knows how it is read.
    LabelSet label_set = LabelSet::AZ;
    int bracket_size = 20;
    CatchAllMode catch_all_mode = CatchAllMode::Final;
    std::vector<std::string> catch_all;  // option names (at most 3)

    // The labels the model reads: yes/no; A..Z (then AA..AZ or a..z with a wide label set);
    // 1..9 (letters past nine levels). A tournament question's labels are A..Z, AA..AZ, BA..
    // in option order: they name its options in outputs, and no read uses them.
    std::vector<std::string> labels() const;
    // More options than one read holds: read as a bracket tournament.
    bool is_tournament() const;
    // What each label means to a person: yes/no, option names, level names.
    std::vector<std::string> alternatives() const;
};

enum class Layout { DocumentFirst, SchemaFirst };
// Stage-2 cascade (dgem's "cascade_mode"): off; entropy (escalate a question whose label entropy
// reaches cascade_threshold); on_miss (in a labelled run, escalate the questions stage 1 missed).
enum class CascadeMode { Off, Entropy, OnMiss };

// dgem's policy "temperature": every read's label log-probabilities are divided by T before the
// softmax (core/decide/read_stats.h). One T for every question, or one per question type
// ({"noul": T, "choice": T, "score": T}; a type left out keeps T = 1), and one per question id
// under "questions" ({"questions": {"urgent": T}, ...}: a question's own T comes first, then its
// type's, then the one T).
struct PolicyTemperature {
    std::optional<double> all;
    std::map<QuestionType, double> by_type;
    std::map<std::string, double> by_question;
    bool is_set() const { return all.has_value() || !by_type.empty() || !by_question.empty(); }
    double for_type(QuestionType type) const;  // 1 where none is given
    double for_question(const std::string& id, QuestionType type) const;
    bool operator==(const PolicyTemperature&) const = default;
};
// The smallest and largest temperature a policy or a flag may carry.
inline constexpr double kMinTemperature = 1e-3;
inline constexpr double kMaxTemperature = 1000;

// Where and when a decision's uncertain questions go to a stage-2 judge (core/decide/cascade.h).
struct CascadeSettings {
    CascadeMode mode = CascadeMode::Off;
    double threshold = 0.5;  // nats: escalate at or above
    // The stage-2 endpoint: a Studio endpoint profile's name, or an OpenAI-compatible base URL
    // (dgem's --cascade-url overrides it). Empty: the caller names it.
    std::string endpoint;
    bool operator==(const CascadeSettings&) const = default;
};
enum class Isolate { Auto, None, Noul, All };
enum class SeedToken { Random, Fixed };

struct Samples {
    bool automatic = true;  // "auto": one read, auto_max when the first read hesitates
    int count = 1;          // used when !automatic; 1..32
    // The policy left "samples" out: a schema is then sent without it, as dgem sends the
    // rendered policy, so that a server's own default (DEFAULT_SAMPLES) applies there.
    bool left_out = false;
};

struct Schema {
    std::string instructions;
    std::vector<Question> questions;
    Samples samples{true, 1, true};
    double auto_threshold = 0.1;
    int auto_max = 4;
    Layout layout = Layout::DocumentFirst;
    Isolate isolate = Isolate::Auto;
    SeedToken seed_token = SeedToken::Random;
    int steps = 1;
    // Thought tokens the model writes before the read (dgem's "think"; 0: read without one).
    int think = 0;
    // Wide questions (dgem's "labels", "bracket_size" and "catch_all" keys).
    LabelSet labels = LabelSet::AZ;
    int bracket_size = 0;  // 0: the label set's default (20 for az, 52 for the wide sets)
    CatchAllMode catch_all = CatchAllMode::Final;
    // At most this many questions share one canvas row; more are split into several rows, each
    // with its own prompt, read one after the other (0: one canvas for every joint question, as
    // the serving image lays it out). dgem's /v1/systemone adapter reads 8 per canvas.
    int canvas_questions = 0;
    // dgem's "temperature" key (left out: T = 1, nothing is rescaled).
    PolicyTemperature temperature;
    // dgem's "cascade_mode", "cascade_threshold" and "cascade_endpoint" keys.
    CascadeSettings cascade;
};

// Parses and validates a schema object (legacy dgem field names accepted). `source` names the
// file or request in error messages.
Result<Schema> parse_schema(const nlohmann::json& schema, std::string_view source);
// The same, keeping the key order of objects: legacy option maps ({"name": "description"}) are
// labelled A, B, ... in the order written, which only an ordered parse preserves.
Result<Schema> parse_schema(const nlohmann::ordered_json& schema, std::string_view source);
// The schema as the wire carries it, keys in a fixed reading order.
nlohmann::ordered_json schema_to_json(const Schema& schema);

// The most alternatives one read can label (A..Z; the wide label sets hold 52), the most options
// a choice question may have (wider than one read: a bracket tournament), and the most reads per
// question.
inline constexpr int kMaxAlternatives = 26;
inline constexpr int kMaxWideAlternatives = 52;
inline constexpr int kMaxOptions = 255;
inline constexpr int kMaxCatchAll = 3;
// How many alternatives one read labels with the set.
int label_capacity(LabelSet labels);
// A tournament's default bracket size for the label set (dgem: 20 for az, the set's width for
// the wide sets).
int default_bracket_size(LabelSet labels);
inline constexpr int kMaxSamples = 32;
inline constexpr int kMaxSteps = 8;
// The longest thought a schema may ask for; a longer one must also fit the served context.
inline constexpr int kMaxThink = 4096;

// The schema's run settings, as a template names them (samples, layout, seed_token, isolate,
// steps, think, auto_threshold, auto_max): a template variable of one of these names tunes how
// the policy reads rather than what it reads.
bool is_schema_setting(std::string_view key);

std::string_view to_string(QuestionType type);  // "noul", "choice", "score"
std::string_view to_string(Layout layout);      // "document_first", "schema_first"
std::string_view to_string(Isolate isolate);    // "auto", "none", "noul", "all"
std::string_view to_string(SeedToken seed);     // "random", "fixed"
std::string_view to_string(LabelSet labels);    // "az", "az_aa", "az_lower"
std::string_view to_string(CatchAllMode mode);  // "off", "final", "both", "verify"
std::string_view to_string(CascadeMode mode);   // "off", "entropy", "on_miss"
std::optional<CascadeMode> parse_cascade_mode(std::string_view text);
std::optional<QuestionType> parse_question_type(std::string_view text);
// A temperature as text ("1.5") or a JSON value: a finite number in [kMinTemperature,
// kMaxTemperature]; the error names `field` and says what is accepted.
Result<double> parse_temperature_value(const std::string& text, std::string_view field);
// The policy "temperature" value: a number, or {"noul": T, "choice": T, "score": T,
// "questions": {id: T}} (any of the members).
Result<PolicyTemperature> parse_policy_temperature(const nlohmann::ordered_json& value,
                                                   std::string_view field);
nlohmann::ordered_json policy_temperature_json(const PolicyTemperature& t);
std::optional<LabelSet> parse_label_set(std::string_view text);
std::optional<CatchAllMode> parse_catch_all_mode(std::string_view text);
std::optional<Layout> parse_layout(std::string_view text);
std::optional<Isolate> parse_isolate(std::string_view text);
std::optional<SeedToken> parse_seed_token(std::string_view text);

}  // namespace core
