// Bracket tournaments (see core/decide/tournament.h).
#include "core/decide/tournament.h"

#include <algorithm>
#include <numeric>

namespace core {

namespace {

constexpr double kFloor = 1e-6;  // the least probability a read is taken to give an option

double floored(double p) {
    return std::max(kFloor, p);
}

}  // namespace

std::vector<std::vector<int>> balanced_brackets(const std::vector<int>& items, int max_size) {
    const size_t n = items.size();
    if (n == 0) return {};
    const size_t size = static_cast<size_t>(std::max(3, max_size));
    const size_t count = (n + size - 1) / size;
    const size_t base = n / count, longer = n % count;
    std::vector<std::vector<int>> out;
    size_t at = 0;
    for (size_t b = 0; b < count; ++b) {
        const size_t len = base + (b < longer ? 1 : 0);
        out.emplace_back(items.begin() + static_cast<std::ptrdiff_t>(at),
                         items.begin() + static_cast<std::ptrdiff_t>(at + len));
        at += len;
    }
    return out;
}

Tournament plan_tournament(const Question& question, int question_index) {
    Tournament t;
    t.question = question_index;
    t.mode = question.catch_all_mode;
    t.label_capacity = label_capacity(question.label_set);
    std::vector<int> round;
    for (int i = 0; i < static_cast<int>(question.options.size()); ++i) {
        const bool catch_all =
            t.mode != CatchAllMode::Off &&
            std::find(question.catch_all.begin(), question.catch_all.end(),
                      question.options[static_cast<size_t>(i)].name) != question.catch_all.end();
        (catch_all ? t.catch_all : round).push_back(i);
    }
    t.brackets = balanced_brackets(
        round,
        std::min(question.bracket_size,
                 t.label_capacity -
                     (t.mode == CatchAllMode::Both ? static_cast<int>(t.catch_all.size()) : 0)));
    return t;
}

std::vector<int> bracket_read_options(const Tournament& t, size_t bracket) {
    std::vector<int> out = t.brackets[bracket];
    if (t.mode == CatchAllMode::Both) out.insert(out.end(), t.catch_all.begin(), t.catch_all.end());
    return out;
}

std::vector<int> choose_finalists(const Tournament& t,
                                  const std::vector<std::vector<double>>& bracket_p) {
    struct Contender {
        int option;
        double p;
    };
    std::vector<Contender> contenders;
    for (size_t b = 0; b < t.brackets.size(); ++b) {
        const auto& own = t.brackets[b];
        std::vector<Contender> local;
        for (size_t i = 0; i < own.size(); ++i)
            local.push_back({own[i], i < bracket_p[b].size() ? bracket_p[b][i] : 0.0});
        std::stable_sort(local.begin(), local.end(),
                         [](const Contender& a, const Contender& c) { return a.p > c.p; });
        local.resize(std::min(local.size(), static_cast<size_t>(kFinalistsPerBracket)));
        contenders.insert(contenders.end(), local.begin(), local.end());
    }
    const bool joins_final = t.mode == CatchAllMode::Final || t.mode == CatchAllMode::Both;
    const int room =
        t.label_capacity - 2 - (joins_final ? static_cast<int>(t.catch_all.size()) : 0);
    if (static_cast<int>(contenders.size()) > room) {
        std::stable_sort(contenders.begin(), contenders.end(),
                         [](const Contender& a, const Contender& c) { return a.p > c.p; });
        contenders.resize(static_cast<size_t>(std::max(2, room)));
    }
    std::vector<int> out;
    for (const auto& c : contenders) out.push_back(c.option);
    std::sort(out.begin(), out.end());
    if (joins_final) out.insert(out.end(), t.catch_all.begin(), t.catch_all.end());
    return out;
}

Scored merge_verify(const std::vector<int>& final_options, const std::vector<double>& final_p,
                    const std::vector<int>& verify_options, const std::vector<double>& verify_p) {
    // verify_options[0] is the final's winner; the rest are the catch-alls. The final's options
    // keep their shares of the mass the verify read left to its winner.
    Scored out;
    const double kept = verify_p.empty() ? 1.0 : verify_p[0];
    for (size_t i = 0; i < final_options.size(); ++i) {
        out.options.push_back(final_options[i]);
        out.p.push_back(final_p[i] * kept);
    }
    for (size_t i = 1; i < verify_options.size(); ++i) {
        out.options.push_back(verify_options[i]);
        out.p.push_back(i < verify_p.size() ? verify_p[i] : 0.0);
    }
    return out;
}

std::vector<double> fuse_tournament(const Tournament& t,
                                    const std::vector<std::vector<double>>& bracket_p,
                                    const std::vector<int>& final_options,
                                    const std::vector<double>& final_p, int n_options) {
    std::vector<double> out(static_cast<size_t>(n_options), 0.0);
    std::vector<bool> finalist(static_cast<size_t>(n_options), false);
    double final_total = 0;
    for (size_t i = 0; i < final_options.size(); ++i) {
        finalist[static_cast<size_t>(final_options[i])] = true;
        final_total += floored(i < final_p.size() ? final_p[i] : 0.0);
    }
    std::vector<double> final_of(static_cast<size_t>(n_options), 0.0);
    for (size_t i = 0; i < final_options.size(); ++i)
        final_of[static_cast<size_t>(final_options[i])] =
            floored(i < final_p.size() ? final_p[i] : 0.0) / final_total;

    // Non-finalists: their bracket's share of the final times their share of the bracket.
    double tail = 0;
    for (size_t b = 0; b < t.brackets.size(); ++b) {
        const auto& own = t.brackets[b];
        double mass = 0, bracket_share = 0;
        for (size_t i = 0; i < own.size(); ++i) {
            mass += floored(i < bracket_p[b].size() ? bracket_p[b][i] : 0.0);
            if (finalist[static_cast<size_t>(own[i])])
                bracket_share += final_of[static_cast<size_t>(own[i])];
        }
        bracket_share = floored(bracket_share);
        for (size_t i = 0; i < own.size(); ++i) {
            const auto o = static_cast<size_t>(own[i]);
            if (finalist[o]) continue;
            out[o] =
                bracket_share * floored(i < bracket_p[b].size() ? bracket_p[b][i] : 0.0) / mass;
            tail += out[o];
        }
    }
    tail = std::min(1 - kFloor, tail);

    // Finalists share what the non-finalists leave, as the final divided it.
    int winner = -1;
    for (int o = 0; o < n_options; ++o) {
        const auto u = static_cast<size_t>(o);
        if (!finalist[u]) continue;
        out[u] = (1 - tail) * final_of[u];
        if (winner < 0 || out[u] > out[static_cast<size_t>(winner)]) winner = o;
    }
    // The final decides the winner: a non-finalist never overtakes it.
    if (winner >= 0) {
        const double best = out[static_cast<size_t>(winner)];
        for (int o = 0; o < n_options; ++o) {
            const auto u = static_cast<size_t>(o);
            if (!finalist[u]) out[u] = std::min(out[u], best * 0.999);
        }
    }
    for (double& p : out) p = std::max(kFloor * kFloor, p);
    const double sum = std::accumulate(out.begin(), out.end(), 0.0);
    for (double& p : out) p /= sum;
    return out;
}

Question sub_question(const Question& question, std::string id, const std::vector<int>& options) {
    Question q;
    q.id = std::move(id);
    q.type = QuestionType::Choice;
    q.instructions = question.instructions;
    for (int o : options) q.options.push_back(question.options[static_cast<size_t>(o)]);
    q.label_set = question.label_set;
    q.bracket_size = question.bracket_size;
    q.catch_all_mode = question.catch_all_mode;
    // A round reads its questions together whatever the isolate mode: the brackets share a
    // prompt, which is what makes a tournament cheap.
    q.alone = false;
    q.alone_explicit = true;
    return q;
}

Schema round_schema(const Schema& schema) {
    Schema round = schema;
    round.questions.clear();
    return round;
}

bool has_tournament(const Schema& schema) {
    return std::any_of(schema.questions.begin(), schema.questions.end(),
                       [](const Question& q) { return q.is_tournament(); });
}

RoundOne round_one(const Schema& schema) {
    RoundOne r;
    r.schema = round_schema(schema);
    for (int qi = 0; qi < static_cast<int>(schema.questions.size()); ++qi) {
        const Question& q = schema.questions[static_cast<size_t>(qi)];
        if (!q.is_tournament()) {
            r.schema.questions.push_back(q);
            r.narrow.push_back(qi);
            continue;
        }
        RoundOne::Wide w{plan_tournament(q, qi), {}};
        for (size_t b = 0; b < w.tournament.brackets.size(); ++b) {
            w.brackets.push_back(static_cast<int>(r.schema.questions.size()));
            r.schema.questions.push_back(
                sub_question(q, bracket_id(q.id, b), bracket_read_options(w.tournament, b)));
            r.narrow.push_back(-1);
        }
        r.wide.push_back(std::move(w));
    }
    return r;
}

Schema final_round(const Schema& schema, const RoundOne& one,
                   const std::vector<std::vector<int>>& finalists) {
    Schema finals = round_schema(schema);
    for (size_t w = 0; w < one.wide.size() && w < finalists.size(); ++w) {
        const Question& q = schema.questions[static_cast<size_t>(one.wide[w].tournament.question)];
        finals.questions.push_back(sub_question(q, q.id, finalists[w]));
    }
    return finals;
}

std::vector<std::vector<int>> finalists_by_name(
    const Schema& schema, const RoundOne& one,
    const std::map<std::string, std::vector<std::string>>& names) {
    std::vector<std::vector<int>> out;
    for (const auto& w : one.wide) {
        const Question& q = schema.questions[static_cast<size_t>(w.tournament.question)];
        auto it = names.find(q.id);
        if (it == names.end()) return {};
        std::vector<int> indices;
        for (const auto& name : it->second)
            for (size_t o = 0; o < q.options.size(); ++o)
                if (q.options[o].name == name) indices.push_back(static_cast<int>(o));
        if (indices.size() < 2) return {};
        out.push_back(std::move(indices));
    }
    return out;
}

int round_canvas_questions(const Schema& schema) {
    return schema.canvas_questions > 0 ? schema.canvas_questions : kBracketsPerCanvas;
}

std::string bracket_id(const std::string& question_id, size_t bracket) {
    const std::string n = std::to_string(bracket + 1);
    return question_id + "_b" + (n.size() < 2 ? "0" + n : n);
}

}  // namespace core
