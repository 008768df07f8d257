#pragma once
// What the engine tests hand the PyTorch reference (tests/reference/diffusion_gemma_ref.py) and
// read back from it: a slot read as JSON (prompt ids, canvas rows and their slots), and the slot
// label log-probabilities of a result in the order the reference writes them.

#include <QJsonArray>
#include <QJsonObject>
#include <vector>

#include "engine/engine.h"

namespace reference_test {

inline QJsonObject request_json(const engine::SlotReadRequest& request) {
    QJsonArray prompt, canvases, all_slots;
    for (engine::TokenId t : request.prompt_ids) prompt.append(t);
    for (const auto& row : request.rows) {
        QJsonArray ids, row_slots;
        for (engine::TokenId t : row.ids) ids.append(t);
        canvases.append(ids);
        for (const auto& s : row.slot_specs) {
            QJsonArray labels;
            for (engine::TokenId t : s.label_ids) labels.append(t);
            row_slots.append(QJsonObject{{"pos", s.pos}, {"label_ids", labels}});
        }
        all_slots.append(row_slots);
    }
    return QJsonObject{{"prompt_ids", prompt}, {"canvases", canvases}, {"slots", all_slots}};
}

inline std::vector<float> slot_logprobs_of(const engine::SlotReadResult& result) {
    std::vector<float> v;
    for (const auto& row : result.rows)
        for (const auto& slot : row)
            for (float lp : slot.label_logprobs) v.push_back(lp);
    return v;
}

}  // namespace reference_test
