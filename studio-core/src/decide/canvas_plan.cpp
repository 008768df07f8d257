// Canvas plans: read groups, prompts, answer templates, slot resolution and seeded noise draws
// (see core/decide/canvas_plan.h for the rules and where they come from).
#include "core/decide/canvas_plan.h"

#include <algorithm>
#include <array>
#include <set>

#include "core/decide/chat_template.h"
#include "core/decide/tournament.h"
#include "engine/engine.h"

namespace core {

using engine::bad_input;

namespace {

// ---------------------------------------------------------------------------------------------
// CPython's random.Random: MT19937 seeded by init_by_array with the 32-bit words of the seed
// (least significant first); randrange(n) draws getrandbits(n.bit_length()) until below n.
// Written from the published MT19937 reference algorithm (Matsumoto and Nishimura).
class PythonRandom {
  public:
    explicit PythonRandom(uint64_t seed) {
        std::array<uint32_t, 2> key{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)};
        init_by_array(key.data(), (seed >> 32) ? 2 : 1);
    }

    uint64_t randbelow(uint64_t n) {
        int k = 0;
        for (uint64_t v = n; v; v >>= 1) ++k;  // n.bit_length()
        uint64_t r = getrandbits(k);
        while (r >= n) r = getrandbits(k);
        return r;
    }

  private:
    static constexpr int kN = 624, kM = 397;

    uint32_t getrandbits(int k) { return next() >> (32 - k); }  // k <= 32 here

    void init_genrand(uint32_t s) {
        mt_[0] = s;
        for (index_ = 1; index_ < kN; ++index_)
            mt_[index_] = 1812433253u * (mt_[index_ - 1] ^ (mt_[index_ - 1] >> 30)) +
                          static_cast<uint32_t>(index_);
    }

    void init_by_array(const uint32_t* key, int length) {
        init_genrand(19650218u);
        int i = 1, j = 0;
        for (int k = std::max(kN, length); k; --k) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525u)) + key[j] +
                     static_cast<uint32_t>(j);
            ++i;
            ++j;
            if (i >= kN) {
                mt_[0] = mt_[kN - 1];
                i = 1;
            }
            if (j >= length) j = 0;
        }
        for (int k = kN - 1; k; --k) {
            mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941u)) -
                     static_cast<uint32_t>(i);
            ++i;
            if (i >= kN) {
                mt_[0] = mt_[kN - 1];
                i = 1;
            }
        }
        mt_[0] = 0x80000000u;
        index_ = kN;
    }

    uint32_t next() {
        if (index_ >= kN) {
            auto twist = [](uint32_t a, uint32_t b) {
                uint32_t y = (a & 0x80000000u) | (b & 0x7fffffffu);
                return (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
            };
            int k = 0;
            for (; k < kN - kM; ++k) mt_[k] = mt_[k + kM] ^ twist(mt_[k], mt_[k + 1]);
            for (; k < kN - 1; ++k) mt_[k] = mt_[k + (kM - kN)] ^ twist(mt_[k], mt_[k + 1]);
            mt_[kN - 1] = mt_[kM - 1] ^ twist(mt_[kN - 1], mt_[0]);
            index_ = 0;
        }
        uint32_t y = mt_[index_++];
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c5680u;
        y ^= (y << 15) & 0xefc60000u;
        y ^= y >> 18;
        return y;
    }

    std::array<uint32_t, kN> mt_{};
    int index_ = kN;
};

// ---------------------------------------------------------------------------------------------
// Python's json.dumps(value, ensure_ascii=False): ", " and ": " separators, keys in the order
// the value holds them.
void python_dumps(const nlohmann::ordered_json& v, std::string& out) {
    if (v.is_object()) {
        out += '{';
        bool first = true;
        for (const auto& [k, x] : v.items()) {
            if (!first) out += ", ";
            first = false;
            out += nlohmann::json(k).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
            out += ": ";
            python_dumps(x, out);
        }
        out += '}';
    } else if (v.is_array()) {
        out += '[';
        for (size_t i = 0; i < v.size(); ++i) {
            if (i) out += ", ";
            python_dumps(v[i], out);
        }
        out += ']';
    } else if (v.is_boolean()) {
        out += v.get<bool>() ? "true" : "false";
    } else if (v.is_null()) {
        out += "null";
    } else {
        out += v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
}

std::string join_ids(const std::vector<std::string>& ids) {
    std::string s;
    for (const auto& id : ids) s += (s.empty() ? "" : ", ") + id;
    return s;
}

// Which questions read alone, as dgem's serving patch decides it.
std::vector<bool> alone_flags(const Schema& schema, Isolate isolate) {
    const int n = static_cast<int>(schema.questions.size());
    int nouls = 0;
    for (const auto& q : schema.questions) nouls += q.type == QuestionType::Noul;
    Isolate mode = isolate;
    if (mode == Isolate::Auto)
        mode = (n >= 2 && n <= kIsolateAutoMax && nouls >= 2) ? Isolate::Noul : Isolate::None;
    if (n < 2 || n > kIsolateMaxQuestions) mode = Isolate::None;
    std::vector<bool> alone;
    for (const auto& q : schema.questions) {
        if (q.alone_explicit)
            alone.push_back(q.alone);
        else
            alone.push_back(mode == Isolate::All ||
                            (mode == Isolate::Noul && q.type == QuestionType::Noul));
    }
    return alone;
}

}  // namespace

std::vector<TokenId> noise_ids(uint64_t seed, int count) {
    PythonRandom rng(seed);
    std::vector<TokenId> out;
    for (int i = 0; i < count; ++i) out.push_back(static_cast<TokenId>(rng.randbelow(kVocabSize)));
    return out;
}

std::string state_text(const nlohmann::ordered_json& state) {
    if (state.is_string()) return state.get<std::string>();
    std::string out;
    python_dumps(state, out);
    return out;
}

std::vector<ChatMessage> prompt_messages(Layout layout, const std::string& question_text,
                                         const std::string& state_text) {
    if (layout == Layout::SchemaFirst) return {{"system", question_text}, {"user", state_text}};
    return {{"user", "<user_text>\n" + state_text + "\n</user_text>\n\n<instructions>\n" +
                         question_text + "\n</instructions>"}};
}

std::string question_text(const Schema& schema, const std::vector<int>& questions, bool indexed) {
    std::string s =
        "Answer a fixed set of questions about the state the user provides. Each question lists "
        "its allowed answers; reply with exactly one label per question.\n";
    if (!trim_whitespace(schema.instructions).empty())
        s += "\n" + trim_whitespace(schema.instructions) + "\n";
    for (int qi : questions) {
        const Question& q = schema.questions[qi];
        s += "\nQuestion " + q.id + ": " + trim_whitespace(q.instructions) + "\n";
        auto labels = q.labels();
        auto names = q.alternatives();
        for (size_t i = 0; i < labels.size(); ++i) {
            std::string desc;
            if (q.type == QuestionType::Noul) {
                auto it = q.criteria.find(i == 0 ? "true" : "false");
                if (it != q.criteria.end()) desc = trim_whitespace(it->second);
                s += desc.empty() ? "  " + labels[i] + "\n" : "  " + labels[i] + ": " + desc + "\n";
                continue;
            }
            if (q.type == QuestionType::Choice)
                desc = trim_whitespace(q.options[i].description);
            else if (auto it = q.criteria.find(names[i]); it != q.criteria.end())
                desc = trim_whitespace(it->second);
            s +=
                "  " + labels[i] + ": " + names[i] + (desc.empty() ? "" : " (" + desc + ")") + "\n";
        }
    }
    s += indexed ? "\nReply on one line with each question's id immediately followed by its label, "
                   "separated by single spaces."
                 : "\nReply with one line per question, in this order, formatted as \"id: label\".";
    return s;
}

std::string answer_text(const Schema& schema, const std::vector<int>& questions,
                        const std::vector<int>& label_choice, bool indexed) {
    std::string s;
    for (size_t i = 0; i < questions.size(); ++i) {
        const Question& q = schema.questions[questions[i]];
        if (i) s += indexed ? " " : "\n";
        s += q.id + (indexed ? "" : ": ") + q.labels()[label_choice[i]];
    }
    return s;
}

std::vector<TokenId> noise_canvas(const ReadGroup& group, uint64_t seed, SeedToken seed_token) {
    std::vector<TokenId> canvas = group.canvas_ids;
    std::vector<TokenId> noise =
        seed_token == SeedToken::Random
            ? noise_ids(seed, static_cast<int>(group.answer_slots.size()))
            : std::vector<TokenId>(group.answer_slots.size(), engine::tokens::kPad);
    for (size_t i = 0; i < group.answer_slots.size(); ++i)
        canvas[group.answer_slots[i].pos] = noise[i];
    return canvas;
}

namespace {

// Tokenizes the group's answer template and finds each question's slot (PROTOCOLS 3.3).
Result<void> resolve_slots(const Schema& schema, ReadGroup& group, bool indexed,
                           const engine::Tokenizer& tok, const std::vector<TokenId>& head,
                           const std::string& lead, int canvas_length, int max_label_ids) {
    const size_t nq = group.questions.size();
    auto template_ids = [&](const std::vector<int>& choice) {
        std::vector<TokenId> ids = head;
        auto body = tok.encode(lead + answer_text(schema, group.questions, choice, indexed));
        ids.insert(ids.end(), body.begin(), body.end());
        return ids;
    };
    std::vector<int> base_choice(nq, 0);
    std::vector<TokenId> base = template_ids(base_choice);
    const int need = static_cast<int>(base.size()) + 1;  // and <turn|>
    if (need > canvas_length) {
        std::string what =
            nq == 1 ? "question \"" + schema.questions[group.questions[0]].id + "\" alone"
                    : "the answer template of " + std::to_string(nq) + " questions";
        return bad_input("schema: " + what + " needs " + std::to_string(need) +
                         " canvas positions; the served canvas holds " +
                         std::to_string(canvas_length) +
                         " (fewer questions per read, isolate some, or a longer canvas)");
    }
    for (size_t qi = 0; qi < nq; ++qi) {
        const Question& q = schema.questions[group.questions[qi]];
        const auto labels = q.labels();
        PlanSlot slot;
        slot.question = q.id;
        slot.question_index = group.questions[qi];
        slot.labels = labels;
        slot.label_ids.assign(labels.size(), 0);
        int pos = -1;
        for (size_t li = 1; li < labels.size(); ++li) {
            std::vector<int> choice = base_choice;
            choice[qi] = static_cast<int>(li);
            std::vector<TokenId> ids = template_ids(choice);
            const std::string where = "question \"" + q.id + "\": label \"" + labels[li] + "\"";
            if (ids.size() != base.size())
                return bad_input(where +
                                 " is not a single token in the answer template (it "
                                 "changes the template from " +
                                 std::to_string(base.size()) + " to " + std::to_string(ids.size()) +
                                 " tokens)");
            std::vector<int> diffs;
            for (size_t i = 0; i < ids.size(); ++i)
                if (ids[i] != base[i]) diffs.push_back(static_cast<int>(i));
            if (diffs.size() != 1)
                return bad_input(where + " changes " + std::to_string(diffs.size()) +
                                 " tokens of the answer template; each label must change exactly "
                                 "one");
            if (pos >= 0 && diffs[0] != pos)
                return bad_input(where + " changes position " + std::to_string(diffs[0]) +
                                 " but label \"" + labels[1] + "\" changes position " +
                                 std::to_string(pos) + "; all labels must share one slot");
            pos = diffs[0];
            slot.label_ids[li] = ids[pos];
        }
        slot.pos = pos;
        slot.label_ids[0] = base[pos];
        for (size_t a = 0; a < labels.size(); ++a)
            for (size_t b = a + 1; b < labels.size(); ++b)
                if (slot.label_ids[a] == slot.label_ids[b])
                    return bad_input("question \"" + q.id + "\": labels \"" + labels[a] +
                                     "\" and \"" + labels[b] + "\" tokenize to the same id " +
                                     std::to_string(slot.label_ids[a]));
        group.answer_slots.push_back(std::move(slot));
    }
    group.template_length = static_cast<int>(base.size());
    group.width = std::min(canvas_length, (need + kCanvasStep - 1) / kCanvasStep * kCanvasStep);
    group.canvas_ids = base;
    group.canvas_ids.push_back(engine::tokens::kTurnClose);
    group.canvas_ids.resize(group.width, engine::tokens::kPad);

    std::set<TokenId> ids;
    for (const auto& s : group.answer_slots) ids.insert(s.label_ids.begin(), s.label_ids.end());
    group.label_union.assign(ids.begin(), ids.end());
    if (group.label_union.size() > static_cast<size_t>(max_label_ids)) {
        std::vector<std::string> qids;
        for (const auto& s : group.answer_slots) qids.push_back(s.question);
        return bad_input("schema: one read of " + join_ids(qids) + " needs " +
                         std::to_string(group.label_union.size()) +
                         " distinct label tokens; a read carries at most " +
                         std::to_string(max_label_ids) + " (isolate some questions)");
    }
    return {};
}

PlanRow make_row(const CanvasPlan& plan, int group, int draw, uint64_t seed, bool extension) {
    PlanRow r;
    r.group = group;
    r.draw = draw;
    r.seed = seed;
    r.extension = extension;
    r.canvas_ids = noise_canvas(plan.groups[group], seed, plan.seed_token);
    return r;
}

}  // namespace

Result<CanvasPlan> build_plan(const Schema& schema, const nlohmann::ordered_json& state,
                              const engine::Tokenizer& tokenizer, const PlanOptions& options) {
    if (schema.questions.empty()) return bad_input("schema: no questions");
    for (int qi : options.questions)
        if (qi < 0 || qi >= static_cast<int>(schema.questions.size()))
            return bad_input("plan: question index " + std::to_string(qi) + " is out of range");
    if (options.canvas_length < kCanvasStep)
        return bad_input("canvas length " + std::to_string(options.canvas_length) +
                         " is too short; accepted: at least " + std::to_string(kCanvasStep));

    // A schema with tournaments: its first reads are Round 1's (the final's options depend on
    // them; the plan executor plans the later rounds).
    if (options.questions.empty() && has_tournament(schema)) {
        PlanOptions round = options;
        round.indexed = schema.questions.size() > 10;
        if (round.canvas_questions <= 0) round.canvas_questions = round_canvas_questions(schema);
        return build_plan(round_one(schema).schema, state, tokenizer, round);
    }
    CanvasPlan plan;
    plan.layout = options.layout.value_or(schema.layout);
    plan.isolate = options.isolate.value_or(schema.isolate);
    plan.seed_token = options.seed_token.value_or(schema.seed_token);
    plan.samples = options.samples.value_or(schema.samples);
    if (!plan.samples.automatic && (plan.samples.count < 1 || plan.samples.count > kMaxSamples))
        return bad_input("samples " + std::to_string(plan.samples.count) +
                         " is out of range; accepted: \"auto\" or 1 to " +
                         std::to_string(kMaxSamples));
    plan.auto_threshold = schema.auto_threshold;
    plan.auto_max = schema.auto_max;
    plan.indexed = options.indexed.value_or(schema.questions.size() > 10);
    plan.seed = options.seed;
    plan.canvas_length = options.canvas_length;
    plan.state_text = state_text(state);
    plan.staged = is_multi_pass(schema) || options.prefix.has_value();
    plan.thought_pending = schema.think > 0 && !options.prefix;
    std::vector<int> asked = options.questions;
    if (asked.empty()) {
        if (plan.staged) {
            asked = question_stages(schema).front();
        } else {
            for (int i = 0; i < static_cast<int>(schema.questions.size()); ++i) asked.push_back(i);
        }
    }
    const ReadPrefix prefix =
        !plan.staged ? ReadPrefix{}
                     : options.prefix.value_or(ReadPrefix{
                           staged_prompt_ids(schema, state, plan.layout, tokenizer), ""});

    // Read groups: runs of joint questions in order; a question reading alone splits the run.
    std::vector<bool> alone = alone_flags(schema, plan.isolate);
    const size_t per_canvas = static_cast<size_t>(
        options.canvas_questions > 0 ? options.canvas_questions : schema.canvas_questions);
    std::vector<ReadGroup> groups;
    ReadGroup run;
    for (int i : asked) {
        if (per_canvas > 0 && run.questions.size() == per_canvas) {
            groups.push_back(std::move(run));
            run = ReadGroup();
        }
        if (alone[i]) {
            if (!run.questions.empty()) groups.push_back(std::move(run));
            run = ReadGroup();
            ReadGroup single;
            single.questions = {i};
            single.isolated = true;
            groups.push_back(std::move(single));
        } else {
            run.questions.push_back(i);
        }
    }
    if (!run.questions.empty()) groups.push_back(std::move(run));

    // A single-pass read's canvas opens with the empty thought block; a stage's prompt already
    // ends with it (or with the thought), and its canvas holds only the answer lines.
    const std::vector<TokenId> head =
        plan.staged ? std::vector<TokenId>{} : tokenizer.encode("<|channel>thought\n<channel|>");
    std::vector<int> every(schema.questions.size());
    for (size_t i = 0; i < every.size(); ++i) every[i] = static_cast<int>(i);
    for (size_t g = 0; g < groups.size(); ++g) {
        ReadGroup& group = groups[g];
        group.seed = plan.seed + kGroupSeedStep * (options.first_group + g);
        // A stage's prompt lists every question (the reference's "full" chunk prompt) and is
        // the shared prefix; a single-pass group's lists its own questions.
        group.question_text =
            question_text(schema, plan.staged ? every : group.questions, plan.indexed);
        group.messages = prompt_messages(plan.layout, group.question_text, plan.state_text);
        group.prompt_ids =
            plan.staged ? prefix.prompt_ids : tokenizer.encode(render_chat(group.messages));
        if (!plan.staged) insert_image_runs(group.prompt_ids, tokenizer, options);
        if (auto ok = resolve_slots(schema, group, plan.indexed, tokenizer, head, prefix.lead,
                                    plan.canvas_length, options.max_label_ids);
            !ok)
            return ok.error();
    }
    plan.groups = std::move(groups);

    const int first_reads = plan.samples.automatic ? 1 : plan.samples.count;
    for (int g = 0; g < static_cast<int>(plan.groups.size()); ++g)
        for (int j = 0; j < first_reads; ++j)
            plan.rows.push_back(
                make_row(plan, g, j, plan.groups[g].seed + kDrawSeedStep * j, false));
    return plan;
}

size_t image_run_position(std::span<const TokenId> prompt_ids, const engine::Tokenizer& tokenizer) {
    for (size_t i = 0; i + 1 < prompt_ids.size(); ++i)
        if (prompt_ids[i] == engine::tokens::kTurnOpen &&
            tokenizer.piece(prompt_ids[i + 1]) == "user") {
            size_t at = i + 2;
            while (at < prompt_ids.size() && prompt_ids[at] != engine::tokens::kNewline) ++at;
            return std::min(at + 1, prompt_ids.size());
        }
    return 0;
}

void insert_image_runs(std::vector<TokenId>& prompt_ids, const engine::Tokenizer& tokenizer,
                       const PlanOptions& options) {
    if (options.image_runs.empty()) return;
    const size_t at = image_run_position(prompt_ids, tokenizer);
    std::vector<TokenId> runs;
    for (int n : options.image_runs) {
        runs.push_back(options.boi_id);
        runs.insert(runs.end(), static_cast<size_t>(std::max(0, n)), options.image_id);
        runs.push_back(options.eoi_id);
    }
    prompt_ids.insert(prompt_ids.begin() + static_cast<std::ptrdiff_t>(at), runs.begin(),
                      runs.end());
}

std::vector<PlanRow> extension_rows(const CanvasPlan& plan, int group) {
    std::vector<PlanRow> rows;
    for (int j = 0; j + 1 < plan.auto_max; ++j)
        rows.push_back(
            make_row(plan, group, j + 1, plan.groups[group].seed + 1 + kDrawSeedStep * j, true));
    return rows;
}

engine::SlotReadRequest to_request(const CanvasPlan& plan, int group,
                                   const std::vector<PlanRow>& rows) {
    engine::SlotReadRequest req;
    const ReadGroup& g = plan.groups[group];
    req.prompt_ids = g.prompt_ids;
    for (const auto& r : rows) {
        if (r.group != group) continue;
        engine::CanvasRow row;
        row.ids = r.canvas_ids;
        for (const auto& s : g.answer_slots) row.slot_specs.push_back({s.pos, s.label_ids});
        req.rows.push_back(std::move(row));
    }
    return req;
}

std::vector<engine::SlotReadRequest> to_requests(const CanvasPlan& plan) {
    std::vector<engine::SlotReadRequest> out;
    for (int g = 0; g < static_cast<int>(plan.groups.size()); ++g) {
        auto req = to_request(plan, g, plan.rows);
        if (!req.rows.empty()) out.push_back(std::move(req));
    }
    return out;
}

nlohmann::json plan_json(const CanvasPlan& plan, const Schema& schema) {
    using nlohmann::json;
    json groups = json::array(), slots = json::array(), reads = json::array();
    for (size_t g = 0; g < plan.groups.size(); ++g) {
        const ReadGroup& group = plan.groups[g];
        json gslots = json::array();
        for (const auto& s : group.answer_slots) {
            json sj = {{"question", s.question},
                       {"pos", s.pos},
                       {"labels", s.labels},
                       {"label_ids", s.label_ids},
                       {"group", g}};
            gslots.push_back(sj);
            slots.push_back(sj);
        }
        json qids = json::array();
        for (int qi : group.questions) qids.push_back(schema.questions[qi].id);
        groups.push_back({{"questions", qids},
                          {"isolated", group.isolated},
                          {"seed", group.seed},
                          {"prompt_ids", group.prompt_ids},
                          {"canvas_ids", group.canvas_ids},
                          {"width", group.width},
                          {"template_length", group.template_length},
                          {"label_ids", group.label_union},
                          {"slots", gslots}});
    }
    for (const auto& r : plan.rows)
        reads.push_back(
            {{"group", r.group}, {"draw", r.draw}, {"seed", r.seed}, {"canvas_ids", r.canvas_ids}});
    const ReadGroup& first = plan.groups.front();
    return {{"prompt_ids", first.prompt_ids},
            {"canvas_ids", first.canvas_ids},
            {"width", first.width},
            {"layout", std::string(to_string(plan.layout))},
            {"isolate", std::string(to_string(plan.isolate))},
            {"seed_token", std::string(to_string(plan.seed_token))},
            {"samples", plan.samples.automatic ? json("auto") : json(plan.samples.count)},
            {"seed", plan.seed},
            {"reads", reads},
            {"slots", slots},
            {"groups", groups}};
}

}  // namespace core
