// Read statistics (PROTOCOLS section 4): from slot reads to answers, error bars and agreement.
#include "core/decide/read_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace core {

std::string_view to_string(Hesitation h) {
    switch (h) {
        case Hesitation::Clear:
            return "Clear";
        case Hesitation::SomewhatUnsure:
            return "Somewhat unsure";
        case Hesitation::VeryUnsure:
            return "Very unsure";
    }
    return "Clear";
}

Hesitation hesitation_class(double hesitation) {
    if (hesitation < 0.16) return Hesitation::Clear;
    if (hesitation <= 0.5) return Hesitation::SomewhatUnsure;
    return Hesitation::VeryUnsure;
}

Hesitation QuestionOutcome::hesitation_class() const {
    return core::hesitation_class(hesitation);
}

std::vector<double> label_logprobs_from_topk(const std::map<int32_t, double>& top,
                                             const std::vector<int32_t>& label_ids) {
    std::vector<double> out(label_ids.size(), 0.0);
    if (top.empty()) return out;
    double floor = std::numeric_limits<double>::infinity();
    for (const auto& [id, lp] : top) floor = std::min(floor, lp);
    floor -= 5.0;
    for (size_t i = 0; i < label_ids.size(); ++i) {
        auto it = top.find(label_ids[i]);
        out[i] = it == top.end() ? floor : it->second;
    }
    return out;
}

std::vector<double> softmax(const std::vector<double>& logits) {
    std::vector<double> p(logits.size(), 0.0);
    if (logits.empty()) return p;
    double mx = *std::max_element(logits.begin(), logits.end());
    double sum = 0;
    for (size_t i = 0; i < logits.size(); ++i) sum += p[i] = std::exp(logits[i] - mx);
    for (double& x : p) x /= sum;
    return p;
}

double entropy_nats(const std::vector<double>& p) {
    double h = 0;
    for (double x : p)
        if (x > 0) h -= x * std::log(x);
    return h;
}

int argmax(const std::vector<double>& v) {
    int best = 0;
    for (size_t i = 1; i < v.size(); ++i)
        if (v[i] > v[best]) best = static_cast<int>(i);
    return best;
}

void finish_outcome(QuestionOutcome& o) {
    o.winner = argmax(o.mean);
    o.confidence = o.mean.empty() ? 0 : o.mean[o.winner];
    o.entropy = entropy_nats(o.mean);
    o.hesitation = o.mean.size() > 1 ? o.entropy / std::log(static_cast<double>(o.mean.size())) : 0;
}

namespace {

// ln p as a read's logits (the softmax of ln p is p); a zero probability stays far below.
std::vector<double> tempered(const std::vector<double>& p, double temperature) {
    std::vector<double> logits(p.size());
    for (size_t i = 0; i < p.size(); ++i)
        logits[i] = std::log(std::max(p[i], 1e-300)) / temperature;
    return softmax(logits);
}

}  // namespace

void summarise_reads(QuestionOutcome& o) {
    const size_t n = o.per_read.size();
    finish_outcome(o);
    o.read_entropy.clear();
    for (const auto& p : o.per_read) o.read_entropy.push_back(entropy_nats(p));
    int agree = 0;
    for (const auto& p : o.per_read) agree += argmax(p) == o.winner;
    o.agreement = static_cast<double>(agree) / static_cast<double>(n);
    if (n > 1) {
        // Sample variance of each label's probability over reads, as the reference computes the
        // winner's. Reads that agree exactly have no spread: say 0, not the rounding residue of
        // the mean.
        for (size_t label = 0; label < o.mean.size(); ++label) {
            const double first = o.per_read.front()[label];
            const bool all_equal = std::all_of(o.per_read.begin(), o.per_read.end(),
                                               [&](const auto& p) { return p[label] == first; });
            double var = 0;
            if (!all_equal)
                for (const auto& p : o.per_read)
                    var += (p[label] - o.mean[label]) * (p[label] - o.mean[label]);
            var /= static_cast<double>(n - 1);
            o.stderr_labels.push_back(std::sqrt(var / static_cast<double>(n)));
        }
        o.stderr_winner = o.stderr_labels[static_cast<size_t>(o.winner)];
    }
}

QuestionOutcome aggregate_reads(const Question& question, const std::vector<SlotRead>& reads) {
    QuestionOutcome o;
    o.id = question.id;
    o.type = question.type;
    o.labels = question.labels();
    o.alternatives = question.alternatives();
    const size_t n = reads.size();
    const size_t k = o.labels.size();
    o.mean.assign(k, 0.0);
    if (n == 0) return o;
    double mass = 0;
    o.argmax_is_label = true;
    for (const auto& r : reads) {
        std::vector<double> p = softmax(r.label_logprobs);
        p.resize(k, 0.0);
        for (size_t i = 0; i < k; ++i) o.mean[i] += p[i] / static_cast<double>(n);
        o.per_read.push_back(std::move(p));
        mass += r.label_mass;
        o.argmax_is_label = o.argmax_is_label && r.argmax_is_label;
    }
    o.label_mass = mass / static_cast<double>(n);
    summarise_reads(o);
    return o;
}

void apply_temperature(QuestionOutcome& o, double temperature) {
    if (temperature == 1 || !(temperature > 0) || o.mean.empty()) return;
    if (o.per_read.empty()) {
        o.mean = tempered(o.mean, temperature);
        finish_outcome(o);
        o.read_entropy.clear();  // the reads' own are unknown: none is better than old ones
        o.stderr_winner.reset();
        o.stderr_labels.clear();
        return;
    }
    for (auto& p : o.per_read) p = tempered(p, temperature);
    const double n = static_cast<double>(o.per_read.size());
    o.mean.assign(o.mean.size(), 0.0);
    for (const auto& p : o.per_read)
        for (size_t i = 0; i < o.mean.size() && i < p.size(); ++i) o.mean[i] += p[i] / n;
    o.stderr_winner.reset();
    o.stderr_labels.clear();
    summarise_reads(o);
}

void apply_temperature(Decision& d, double temperature) {
    if (temperature == 1 || !(temperature > 0)) return;
    for (auto& q : d.questions) apply_temperature(q, temperature);
    d.diagnostics.temperature = temperature;
}

void apply_temperature(Decision& d, const PolicyTemperature& temperature) {
    for (auto& q : d.questions)
        if (!q.skipped) apply_temperature(q, temperature.for_question(q.id, q.type));
    record_temperature(temperature, d.diagnostics);
}

void record_temperature(const PolicyTemperature& temperature, DecisionDiagnostics& x) {
    x.temperature.reset();
    x.temperature_by_type.clear();
    x.temperature_by_question = temperature.by_question;
    if (!temperature.is_set()) return;
    if (temperature.by_type.empty() && temperature.by_question.empty()) {
        x.temperature = *temperature.all;
        return;
    }
    for (auto type : {QuestionType::Noul, QuestionType::Choice, QuestionType::Score})
        x.temperature_by_type[std::string(to_string(type))] = temperature.for_type(type);
}

bool needs_more_reads(const std::vector<double>& first_read_entropies, double threshold,
                      int auto_max) {
    if (auto_max <= 1 || first_read_entropies.empty()) return false;
    return *std::max_element(first_read_entropies.begin(), first_read_entropies.end()) > threshold;
}

QuestionOutcome skipped_outcome(const Question& question) {
    QuestionOutcome o;
    o.id = question.id;
    o.type = question.type;
    o.labels = question.labels();
    o.alternatives = question.alternatives();
    o.skipped = true;
    o.confidence = 0;
    o.agreement = 0;
    o.label_mass = 0;
    return o;
}

std::string skip_text(const QuestionOutcome& o) {
    std::string wanted;
    for (const auto& w : o.skip_wanted) wanted += (wanted.empty() ? "" : " or ") + w;
    return "skipped: asked only if " + o.skip_because + " is " + wanted + " (it " +
           (o.skip_was ? "was " + *o.skip_was : std::string("was skipped")) + ")";
}

}  // namespace core
