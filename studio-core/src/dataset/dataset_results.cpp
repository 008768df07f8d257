// A dataset run's output file and summary, one row at a time.
#include "core/dataset/dataset_results.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace core::dataset {

namespace {

using nlohmann::json;
using ojson = nlohmann::ordered_json;

constexpr std::size_t kUncertainKept = 10;
constexpr std::size_t kFailuresKept = 50;

// A question's answer in a record: the winner of its probabilities, or the generative reply's
// choice when the run asked only that way.
struct Answer {
    bool present = false;
    int winner = -1;
    std::string name;
    std::optional<double> p, entropy, hesitation, agreement;
};

Answer answer_of(const std::string& id, const std::vector<std::string>& names, std::size_t index,
                 const eval::ItemRecord& rec) {
    Answer a;
    if (!rec.ok) return a;
    for (const auto& q : rec.questions) {
        if (q.id != id || q.probs.empty()) continue;
        const auto top = std::max_element(q.probs.begin(), q.probs.end());
        a.present = true;
        a.winner = static_cast<int>(top - q.probs.begin());
        a.name = q.names[static_cast<size_t>(a.winner)];
        a.p = *top;
        double h = 0;
        for (double p : q.probs)
            if (p > 0) h -= p * std::log(p);
        a.entropy = h;
        a.hesitation = q.hesitation;
        a.agreement = q.agreement;
        return a;
    }
    if (rec.generative && index < rec.generative->answers.size()) {
        const std::string& chosen = rec.generative->answers[index];
        const auto it = std::find(names.begin(), names.end(), chosen);
        if (it != names.end()) {
            a.present = true;
            a.winner = static_cast<int>(it - names.begin());
            a.name = chosen;
        }
    }
    return a;
}

json rounded(const std::optional<double>& v) {
    if (!v) return nullptr;
    return std::round(*v * 1e6) / 1e6;
}

std::string cell_text(const ojson& v) {
    if (v.is_null()) return "";
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
    return v.dump();
}

}  // namespace

eval::Ece QuestionTally::reliability() const {
    eval::Ece e;
    e.bins.resize(10);
    for (std::size_t b = 0; b < 10; ++b) {
        auto& bin = e.bins[b];
        bin.lo = static_cast<double>(b) / 10;
        bin.hi = static_cast<double>(b + 1) / 10;
        bin.n = bin_n[b];
        e.n += bin_n[b];
    }
    for (std::size_t b = 0; b < 10; ++b) {
        auto& bin = e.bins[b];
        if (bin.n == 0) continue;
        bin.confidence = bin_confidence[b] / bin.n;
        bin.accuracy = bin_correct[b] / bin.n;
        e.ece += static_cast<double>(bin.n) / e.n * std::abs(bin.accuracy - bin.confidence);
    }
    return e;
}

int DatasetSummary::scored() const {
    int n = 0;
    for (const auto& q : questions) n += q.scored;
    return n;
}

int DatasetSummary::correct() const {
    int n = 0;
    for (const auto& q : questions) n += q.correct;
    return n;
}

double DatasetSummary::accuracy() const {
    return scored() ? static_cast<double>(correct()) / scored() : 0;
}

double DatasetSummary::cached_share() const {
    return prompt_tokens > 0 ? static_cast<double>(cached_prompt_tokens) / prompt_tokens : 0;
}

json RowOutcome::to_json() const {
    json j = record.to_json();
    j["row"] = row;
    if (!expected.empty()) j["expected"] = expected;
    return j;
}

Result<RowOutcome> RowOutcome::from_json(const json& j) {
    auto rec = eval::ItemRecord::from_json(j);
    if (!rec) return rec.error();
    RowOutcome o;
    o.record = std::move(*rec);
    try {
        o.row = j.at("row").get<std::size_t>();
        if (auto e = j.find("expected"); e != j.end())
            o.expected = e->get<std::map<std::string, std::string>>();
    } catch (const json::exception& e) {
        return engine::bad_input(std::string("not a dataset row record (") + e.what() + ")");
    }
    return o;
}

DatasetSummary empty_summary(const DatasetPlan& plan) {
    DatasetSummary s;
    s.labelled = plan.labelled();
    for (const auto& q : plan.questions) {
        QuestionTally t;
        t.id = q.id;
        t.names = q.names;
        t.labelled = q.labelled;
        t.distribution.assign(q.names.size(), 0);
        t.confusion.assign(q.names.size(), std::vector<int>(q.names.size(), 0));
        s.questions.push_back(std::move(t));
    }
    return s;
}

void tally(DatasetSummary& s, const DataRow& row, const RowOutcome& outcome) {
    const eval::ItemRecord& rec = outcome.record;
    s.rows++;
    if (!rec.ok) {
        s.failed++;
        s.failure_kinds[rec.error_kind.empty() ? "engine" : rec.error_kind]++;
        if (s.failures.size() < kFailuresKept)
            s.failures.push_back({row.number, row.id, rec.error});
        return;
    }
    s.ok++;
    s.prompt_tokens += rec.prompt_tokens;
    s.cached_prompt_tokens += rec.cached_prompt_tokens;
    for (std::size_t qi = 0; qi < s.questions.size(); ++qi) {
        QuestionTally& t = s.questions[qi];
        const Answer a = answer_of(t.id, t.names, qi, rec);
        if (!a.present) continue;
        t.answered++;
        t.distribution[static_cast<size_t>(a.winner)]++;
        if (a.hesitation) {
            UncertainRow u{row.number, row.id, t.id, a.name, a.p.value_or(0), *a.hesitation};
            auto& top = s.most_uncertain;
            if (top.size() < kUncertainKept || u.hesitation > top.back().hesitation) {
                auto at = std::find_if(top.begin(), top.end(), [&](const UncertainRow& r) {
                    return r.hesitation < u.hesitation;
                });
                top.insert(at, std::move(u));
                if (top.size() > kUncertainKept) top.pop_back();
            }
        }
        auto e = outcome.expected.find(t.id);
        if (e == outcome.expected.end() || e->second.empty()) continue;
        const auto want = std::find(t.names.begin(), t.names.end(), e->second);
        if (want == t.names.end()) continue;
        const bool right = a.name == e->second;
        t.scored++;
        t.correct += right;
        t.confusion[static_cast<size_t>(want - t.names.begin())][static_cast<size_t>(a.winner)]++;
        if (a.p) {
            const auto b = static_cast<size_t>(std::clamp(static_cast<int>(10 * *a.p), 0, 9));
            t.bin_n[b]++;
            t.bin_confidence[b] += *a.p;
            t.bin_correct[b] += right ? 1 : 0;
        }
    }
}

namespace {
// A cascaded run's columns per question: escalated or not, both stages' answers, stage 2's
// latency (stage 1's is the row's; empty where the question was not asked).
constexpr const char* kEscalationSuffixes[] = {"_escalated", "_stage1", "_stage2", "_stage2_ms"};

void add_escalation(ojson& out, const std::string& id, const eval::ItemRecord& rec) {
    const eval::EscalationRecord* e = nullptr;
    if (rec.ok)
        for (const auto& q : rec.questions)
            if (q.id == id && q.escalation) e = &*q.escalation;
    auto text = [](const std::string& s) { return s.empty() ? ojson() : ojson(s); };
    out[id + "_escalated"] = e ? ojson(e->escalated) : ojson();
    out[id + "_stage1"] = e ? text(e->stage1) : ojson();
    out[id + "_stage2"] = e && e->escalated ? text(e->stage2) : ojson();
    out[id + "_stage2_ms"] = ojson();
    if (e && e->escalated) out[id + "_stage2_ms"] = rounded(e->stage2_ms);
}
}  // namespace

ojson output_row(const DatasetPlan& plan, const DataRow& row, const RowOutcome& outcome) {
    ojson out = ojson::object();
    for (const auto& c : plan.shape.columns) {
        auto it = row.columns.find(c);
        out[c] = it == row.columns.end() ? ojson() : *it;
    }
    for (std::size_t qi = 0; qi < plan.questions.size(); ++qi) {
        const DatasetQuestion& q = plan.questions[qi];
        const Answer a = answer_of(q.id, q.names, qi, outcome.record);
        out[q.id] = a.present ? ojson(a.name) : ojson();
        out[q.id + "_p"] = rounded(a.p);
        out[q.id + "_entropy"] = rounded(a.entropy);
        out[q.id + "_hesitation"] = rounded(a.hesitation);
        out[q.id + "_agreement"] = rounded(a.agreement);
        if (plan.cascade) add_escalation(out, q.id, outcome.record);
        if (!q.labelled) continue;
        auto e = outcome.expected.find(q.id);
        std::string expected = e != outcome.expected.end() ? e->second : std::string();
        if (expected.empty())
            if (auto r = row.expected.find(q.id); r != row.expected.end()) expected = r->second;
        out[std::string(kExpectedPrefix) + q.id] = expected.empty() ? ojson() : ojson(expected);
        out[q.id + "_correct"] =
            a.present && !expected.empty() ? ojson(a.name == expected) : ojson();
    }
    out["error"] = outcome.record.ok ? "" : outcome.record.error;
    return out;
}

std::vector<std::string> output_columns(const DatasetPlan& plan) {
    std::vector<std::string> cols = plan.shape.columns;
    for (const auto& q : plan.questions) {
        for (const char* suffix : {"", "_p", "_entropy", "_hesitation", "_agreement"})
            cols.push_back(q.id + suffix);
        if (plan.cascade)
            for (const char* suffix : kEscalationSuffixes) cols.push_back(q.id + suffix);
        if (q.labelled) {
            cols.push_back(std::string(kExpectedPrefix) + q.id);
            cols.push_back(q.id + "_correct");
        }
    }
    cols.push_back("error");
    return cols;
}

Result<std::unique_ptr<ResultWriter>> ResultWriter::open(const std::string& path,
                                                         const DatasetPlan& plan) {
    auto format = data_format_for(path);
    if (!format)
        return engine::bad_input("-o " + path +
                                 ": accepted outputs: .csv or .jsonl (one row per data row), "
                                 ".html or .pdf (the run's report)");
    std::unique_ptr<ResultWriter> w(new ResultWriter());
    w->path_ = path;
    w->tmp_ = path + ".tmp-" + std::to_string(::getpid());
    w->format_ = *format;
    w->plan_ = &plan;
    w->out_.open(w->tmp_, std::ios::binary | std::ios::trunc);
    if (!w->out_) return engine::bad_input(path + ": cannot write the output file");
    if (w->format_ == DataFormat::Csv) w->out_ << csv_line(output_columns(plan));
    return w;
}

ResultWriter::~ResultWriter() {
    if (!committed_) {
        out_.close();
        std::remove(tmp_.c_str());
    }
}

Result<void> ResultWriter::write(const DataRow& row, const RowOutcome& outcome) {
    const ojson values = output_row(*plan_, row, outcome);
    if (format_ == DataFormat::Jsonl) {
        out_ << values.dump(-1, ' ', false, ojson::error_handler_t::replace) << '\n';
    } else {
        std::vector<std::string> cells;
        cells.reserve(values.size());
        for (const auto& v : values) cells.push_back(cell_text(v));
        out_ << csv_line(cells);
    }
    if (!out_) return engine::bad_input(path_ + ": cannot write the output file");
    return {};
}

Result<void> ResultWriter::commit() {
    out_.close();
    if (!out_) return engine::bad_input(path_ + ": cannot write the output file");
    const int fd = ::open(tmp_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0)
        return engine::bad_input(path_ + ": cannot put the output file in place");
    committed_ = true;
    return {};
}

}  // namespace core::dataset
