// Records -> table rows (see core/evaluation/eval_table.h).
#include "core/evaluation/eval_table.h"

#include <algorithm>
#include <map>

#include "core/evaluation/eval_report.h"

namespace core::eval {

std::vector<ItemRow> item_rows(const Suite& suite, const std::vector<ItemRecord>& records) {
    std::map<std::string, const ItemRecord*> by_id;
    for (const auto& r : records) by_id.emplace(r.id, &r);
    std::vector<ItemRow> rows;
    if (suite.kind == SuiteKind::JevBench) {
        for (const ScoredItem& s : scored_items(suite, records)) {
            const ItemRecord& r = *by_id.at(s.id);
            ItemRow row;
            row.id = s.id;
            row.tier = s.tier;
            row.family = s.family;
            row.topic = s.topic;
            row.expected = s.expected;
            row.predicted = s.score.valid ? s.score.predicted : std::string();
            row.p = s.score.valid ? s.score.confidence : -1;
            row.correct = s.score.correct;
            row.failed = s.failed;
            row.latency_s = s.latency_s;
            row.error = r.ok ? s.score.invalid_reason : r.error;
            rows.push_back(std::move(row));
        }
        return rows;
    }
    for (const SuiteItem& item : suite.items) {
        auto it = by_id.find(item.id);
        if (it == by_id.end()) continue;
        const ItemRecord& r = *it->second;
        ItemRow row;
        row.id = item.id;
        row.tier = item.tier;
        row.family = item.domain;
        row.topic = item.topic;
        row.failed = !r.ok;
        row.latency_s = r.latency_s;
        row.error = r.error;
        row.correct = r.ok && !item.questions.empty();
        double lowest = 1;
        for (const ItemQuestion& q : item.questions) {
            auto sep = [](std::string& s) {
                if (!s.empty()) s += ", ";
            };
            sep(row.expected);
            row.expected += q.id + "=" + q.expected;
            const auto rq = std::find_if(r.questions.begin(), r.questions.end(),
                                         [&](const QuestionRecord& x) { return x.id == q.id; });
            if (!r.ok || rq == r.questions.end() || rq->probs.empty()) {
                row.correct = false;
                continue;
            }
            const auto best = std::max_element(rq->probs.begin(), rq->probs.end());
            const std::string& name = rq->names[static_cast<size_t>(best - rq->probs.begin())];
            sep(row.predicted);
            row.predicted += q.id + "=" + name;
            lowest = std::min(lowest, *best);
            row.correct = row.correct && name == q.expected;
        }
        row.p = r.ok ? lowest : -1;
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace core::eval
