#pragma once
// JevBench v1.4 scoring as upstream (fstandhartinger/jevbench, scoring.py, metrics.py,
// composite_v13.py, composite_v14.py) computes it, written from ../shared/JEVBENCH.md, plus
// dgem's variants as named options (post-hoc temperature, tables, paraphrase consistency, the
// hesitation sweep). Pure functions over value types: no I/O, no Qt.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/result.h"

namespace core::eval {

// ---- one item --------------------------------------------------------------------------

// A prediction checked against the item's labels (upstream validate_probs + score_task).
struct ItemScore {
    bool valid = false;         // usable (possibly renormalised)
    bool strict_valid = false;  // |sum - 1| <= 1e-3 as given
    bool renormalized = false;  // 1e-3 < |sum - 1| <= 2e-2: divided by the sum
    std::string invalid_reason;
    std::map<std::string, double> probs;  // normalised, over exactly the labels (when valid)
    std::string predicted;                // argmax, ties to the lexicographically smallest label
    bool correct = false;
    double confidence = 0;             // max p (valid only)
    double brier = 0;                  // sum_k (p_k - y_k)^2 (valid only)
    std::optional<double> ordinal_ev;  // score items: sum_i i p_i
};

inline constexpr double kStrictTolerance = 1e-3;
inline constexpr double kRenormTolerance = 2e-2;

// `probs`: the prediction as JSON (an object label -> number), or null for a failed answer.
// `expected`: the item's expected label (score items: str(expected)).
ItemScore score_item(const nlohmann::json& probs, const std::vector<std::string>& labels,
                     const std::string& expected, bool score_type);

// Post-hoc temperature (dgem): p_k^(1/T) / sum_j p_j^(1/T). T > 0.
std::map<std::string, double> temperature_scale(const std::map<std::string, double>& probs,
                                                double t);

// ---- metrics -------------------------------------------------------------------------

struct ReliabilityBin {
    int n = 0;
    double confidence = 0;  // mean top-label confidence in the bin
    double accuracy = 0;
    double lo = 0, hi = 0;
};
struct Ece {
    double ece = 0;
    int n = 0;
    std::vector<ReliabilityBin> bins;  // 10 equal-width bins, index min(int(10 c), 9)
};
// (confidence, correct) pairs; an empty list gives n = 0 and ece 0.
Ece ece_top_label(const std::vector<std::pair<double, bool>>& pairs);

// Linear interpolation at (n-1) q over the sorted values; nullopt for an empty list.
std::optional<double> percentile(std::vector<double> values, double q);

// 0.5 sum_k |p_k - q_k| over the union of keys.
double tvd(const std::map<std::string, double>& p, const std::map<std::string, double>& q);

// ---- axes (composite_v13 / composite_v14) ----------------------------------------------

// Chance constants from all frozen items, and the tier weights.
double tier_chance(const std::string& tier);  // easy, standard, judge, hard; -1 otherwise
double tier_weight(const std::string& tier);  // .14, .28, .28, .30; 0 otherwise

// I13 from per-tier accuracies (absent tiers dropped, the rest renormalised); nullopt when no
// known tier is present.
std::optional<double> intelligence_v13(const std::map<std::string, double>& tier_accuracy);
inline constexpr double kSealedChance = 0.293;
inline constexpr double kSealedWeight = 0.20;
double chance_corrected_sealed(double accuracy);
// v1.4: (0.8 I13 + 0.2 sealed) times the gap penalty above 25 points.
double intelligence_v14(double i13, double sealed_accuracy, double public_accuracy);

// max(0, 100 (1 - ECE/0.5)); and C13 = (that + 100 (1 - TVD)) / 2.
double calibration_from_ece(double ece);
double calibration_v13(double ece, double soft_tvd);
// v1.4: old + (new - old) * min(1, 0.2/0.35).
double calibration_v14(std::optional<double> old_cal, std::optional<double> new_cal);

enum class EndpointKind { Api, Gpu, Cpu, Other };
std::optional<EndpointKind> parse_endpoint_kind(
    const std::string& text);  // api|gpu|cpu|demo|unknown
std::string to_string(EndpointKind kind);
double adjusted_latency(double seconds, EndpointKind kind);  // api p; gpu/cpu 2p+0.15; else 2p
double speed_point(double seconds);                          // clamp(100 - 20 log10(s/0.1))
double speed_axis(double p50_adjusted, double p95_adjusted);
double cost_axis(double usd_per_1000);  // clamp(100 - 30 log10(usd/0.001)); usd > 0

// Upstream's price for the same DiffusionGemma weights (djev): a labelled estimate only.
inline constexpr double kDiffusionGemmaUsdPer1k = 0.025951;

struct Axes {
    std::optional<double> intelligence, calibration, speed, cost;
};
// The v1.4 harmonic composite with its gates (I, Speed, Cost below 50 multiply by (x/50)^2);
// nullopt when an axis is missing, 0 when one is <= 0.
std::optional<double> composite_v14(const Axes& axes);

// ---- a whole run --------------------------------------------------------------------

// One scored JevBench item (inputs to the run score).
struct ScoredItem {
    std::string id, tier, family, topic, group;
    std::vector<std::string> labels;
    std::string expected;
    ItemScore score;
    double latency_s = 0;    // wall time around the whole call, failures included
    bool failed = false;     // the call failed (no answer)
    double hesitation = -1;  // entropy / ln |labels| of the normalised probs; -1 when invalid
    std::optional<std::map<std::string, double>> gold_probs;
};

struct GroupStats {
    std::string key;
    int n = 0, correct = 0, valid = 0;
    double accuracy = 0, mean_confidence = 0, chance = 0;
    double p50_latency_s = 0;
};

struct HesitationStep {
    double threshold = 0;
    int escalated = 0;  // items with hesitation > threshold (or invalid)
    double escalated_share = 0;
    double kept_accuracy = 0;  // accuracy of the items kept (not escalated)
    int kept = 0;
};

struct ParaphraseStats {
    int groups = 0;        // groups with 2+ scored items
    int consistent = 0;    // all predictions equal
    int both_correct = 0;  // every member correct
    double agreement = 0, both_correct_rate = 0;
};

struct RunScoreOptions {
    EndpointKind endpoint_kind = EndpointKind::Gpu;
    std::optional<double> usd_per_1k;       // a price: Cost axis
    bool cost_estimate = false;             // use kDiffusionGemmaUsdPer1k, labelled an estimate
    std::optional<double> temperature;      // --temperature-scale T (dgem variant)
    bool auto_temperature = false;          // --auto-temperature: 5-fold CV fit (dgem variant)
    std::optional<double> sealed_accuracy;  // v1.4 intelligence needs it
};

struct RunScore {
    int n = 0, correct = 0, valid = 0, failed = 0, renormalized = 0;
    double accuracy = 0;
    std::map<std::string, double> tier_accuracy;
    std::optional<double> intelligence_v13;
    std::optional<double> ece_hard;  // hard tier only
    Ece reliability;                 // the hard-tier bins
    Ece reliability_all;             // every valid item (reported)
    std::optional<double> soft_tvd;  // probability items
    int tvd_items = 0;
    std::optional<double> calibration;  // C13 (ECE term only when no probability item ran)
    bool calibration_ece_only = false;
    double brier = 0;  // mean over valid items (reported, never scored)
    std::optional<double> p50_s, p95_s, p50_adjusted_s, p95_adjusted_s;
    std::optional<double> speed;
    std::optional<double> cost;
    bool cost_is_estimate = false;
    std::optional<double> usd_per_1k;
    Axes public_axes;                        // I13, C13, Speed, Cost
    std::optional<double> public_estimate;   // composite on public axes: an estimate, never a rank
    std::optional<double> intelligence_v14;  // with a sealed accuracy
    std::optional<double> temperature;       // applied or fitted T (dgem variant)
    std::vector<double> fold_temperatures;   // --auto-temperature: T per fold
    std::map<std::string, GroupStats> by_tier, by_family, by_topic;
    ParaphraseStats paraphrase;
    std::vector<HesitationStep> hesitation_sweep;
    std::string latency_basis;  // which latencies Speed used
    EndpointKind endpoint_kind = EndpointKind::Gpu;
};

// Scores a run's items. With a temperature (given or fitted) the valid items' probabilities are
// rescaled before ECE, TVD and Brier (accuracy only changes where a tie breaks differently).
RunScore score_run(std::vector<ScoredItem> items, const RunScoreOptions& options);
nlohmann::json to_json(const RunScore& score);

// Fits T minimising the negative log-likelihood of the expected label over a log grid
// [0.05, 20]; items whose probs are invalid are skipped. Returns 1 for an empty list.
double fit_temperature(const std::vector<const ScoredItem*>& items);

// ---- the leaderboard ----------------------------------------------------------------

struct LeaderboardRow {
    std::string key, display, endpoint_kind;
    int rank = 0;
    double score = 0;  // published jevbench_score
    Axes axes;
    bool this_run = false;
};
struct Leaderboard {
    std::string revision, protocol;
    std::vector<LeaderboardRow> rows;
};
// Reads leaderboard_v14.json; errors name the file and field.
engine::Result<Leaderboard> load_leaderboard(const std::string& path);

}  // namespace core::eval
