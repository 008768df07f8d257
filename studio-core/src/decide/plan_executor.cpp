// The decide module's executor (see core/decide/plan_executor.h).
#include "core/decide/plan_executor.h"

#include <algorithm>
#include <chrono>
#include <map>

#include "base/time.h"
#include "core/decide/stages.h"
#include "core/decide/tournament.h"
#include "core/policy/json_input.h"

namespace core {

namespace {

void report(const ProgressFn& progress, std::string stage, double fraction) {
    if (progress) progress(Progress{std::move(stage), fraction, {}});
}

// The reads of one group: per row, per slot, what the reader returned.
struct GroupReads {
    std::vector<std::vector<SlotRead>> rows;  // [row][slot]
    bool extended = false;
    std::vector<double> first_entropy;  // per slot, of the first read's label distribution
    int cached_prompt_tokens = 0;
};

// One decision's run: the thought, then each stage's plan read and folded into the decision.
class Execution {
  public:
    Execution(const DecideRequest& request, const ExecutorSetup& setup, RowReader& reader,
              const ProgressFn& progress, const CancelToken& cancel)
        : request_(request),
          schema_(request.schema),
          setup_(setup),
          reader_(reader),
          progress_(progress),
          cancel_(cancel),
          multi_pass_(is_multi_pass(schema_)),
          has_tournament_(has_tournament(schema_)) {}

    Result<Decision> run();

  private:
    Result<std::vector<TokenId>> think();
    Result<void> read_stages(const std::vector<TokenId>& base);
    Result<void> read_rows(const CanvasPlan& plan, int group, const std::vector<PlanRow>& rows,
                           GroupReads& out);
    Result<std::vector<GroupReads>> read_plan(const CanvasPlan& plan, double from, double span);
    void collect(const Schema& schema, const CanvasPlan& plan, const std::vector<GroupReads>& reads,
                 int stage, std::vector<QuestionOutcome>& into);
    Result<std::vector<QuestionOutcome>> read_round(const Schema& round, PlanOptions& options,
                                                    double from, double span);
    Result<void> read_tournaments(PlanOptions options, double from, double span);
    QuestionOutcome fuse_outcome(const Tournament& t, const std::vector<QuestionOutcome>& brackets,
                                 const std::vector<int>& final_options,
                                 const QuestionOutcome& final_read,
                                 const std::optional<QuestionOutcome>& verify_read,
                                 const std::vector<int>& verify_options) const;
    int rows_reading(size_t plan, const std::vector<int>& questions) const;
    void skip_unmet(const std::vector<int>& stage_questions, int stage, PlanOptions& options);
    void record_diagnostics();
    void temper(size_t question);

    const DecideRequest& request_;
    const Schema& schema_;
    const ExecutorSetup& setup_;
    RowReader& reader_;
    const ProgressFn& progress_;
    const CancelToken& cancel_;
    const bool multi_pass_;
    const bool has_tournament_;  // single pass only (the schema parser refuses staged ones)
    const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();

    Decision d_;
    double server_ms_ = 0;
    bool all_timed_ = true;  // every read said what the server spent
    std::vector<CanvasPlan> plans_;
    std::vector<std::vector<GroupReads>> reads_;
    std::map<std::string, std::optional<std::string>> answered_;
    std::vector<bool> tempered_;  // per question: the policy temperature was applied
};

Result<void> Execution::read_rows(const CanvasPlan& plan, int group,
                                  const std::vector<PlanRow>& rows, GroupReads& out) {
    if (rows.empty()) return {};
    auto result = reader_.read_rows(plan, group, rows, cancel_);
    if (!result) return result.error();
    if (result->rows.size() != rows.size())
        return engine::engine_error("the reader returned " + std::to_string(result->rows.size()) +
                                    " rows for " + std::to_string(rows.size()) + " canvases");
    out.cached_prompt_tokens = std::max(out.cached_prompt_tokens, result->cached_prompt_tokens);
    Timings& t = d_.timings;
    t.encode_ms += result->timings.encode_ms;
    t.decode_ms += result->timings.decode_ms;
    t.readout_ms += result->timings.readout_ms;
    t.queue_ms += result->timings.queue_ms;
    if (result->server_ms)
        server_ms_ += *result->server_ms;
    else
        all_timed_ = false;
    for (auto& row : result->rows) out.rows.push_back(std::move(row));
    return {};
}

// Every group's first reads, and the "auto" policy's extra reads where a group's first read
// hesitates.
Result<std::vector<GroupReads>> Execution::read_plan(const CanvasPlan& plan, double from,
                                                     double span) {
    std::vector<GroupReads> reads(plan.groups.size());
    const int ngroups = static_cast<int>(plan.groups.size());
    for (int g = 0; g < ngroups; ++g) {
        if (cancel_.cancelled()) return engine::cancelled();
        report(progress_, "decoding", from + span * g / ngroups);
        std::vector<PlanRow> first;
        for (const auto& row : plan.rows)
            if (row.group == g) first.push_back(row);
        if (auto ok = read_rows(plan, g, first, reads[g]); !ok) return ok.error();
        ++d_.passes;
        if (!plan.samples.automatic || reads[g].rows.empty()) continue;
        for (const auto& slot : reads[g].rows[0])
            reads[g].first_entropy.push_back(entropy_nats(softmax(slot.label_logprobs)));
        if (needs_more_reads(reads[g].first_entropy, plan.auto_threshold, plan.auto_max)) {
            reads[g].extended = true;
            if (auto ok = read_rows(plan, g, extension_rows(plan, g), reads[g]); !ok)
                return ok.error();
            ++d_.passes;
        }
    }
    return reads;
}

// Folds a plan's reads into the decision's outcomes (by schema index) and its counts.
void Execution::collect(const Schema& schema, const CanvasPlan& plan,
                        const std::vector<GroupReads>& reads, int stage,
                        std::vector<QuestionOutcome>& into) {
    for (size_t g = 0; g < plan.groups.size(); ++g) {
        const ReadGroup& group = plan.groups[g];
        for (size_t s = 0; s < group.answer_slots.size(); ++s) {
            std::vector<SlotRead> per_read;
            for (const auto& row : reads[g].rows) per_read.push_back(row[s]);
            const int qi = group.answer_slots[s].question_index;
            QuestionOutcome o = aggregate_reads(schema.questions[qi], per_read);
            o.pos = group.answer_slots[s].pos;
            o.isolated = group.isolated;
            o.stage = stage;
            into[qi] = std::move(o);
        }
        d_.samples = std::max(d_.samples, static_cast<int>(reads[g].rows.size()));
        d_.reads += static_cast<int>(reads[g].rows.size());
        d_.prompt_tokens = std::max(d_.prompt_tokens, static_cast<int>(group.prompt_ids.size()));
        d_.cached_prompt_tokens = std::max(d_.cached_prompt_tokens, reads[g].cached_prompt_tokens);
        d_.canvas_width = std::max(d_.canvas_width, group.width);
    }
    d_.read_groups += static_cast<int>(plan.groups.size());
}

// One round of a tournament pass: its schema planned and read, its outcomes by its question
// index. Rounds go on from the groups earlier rounds read (their seeds) and answer in the
// policy schema's layout.
Result<std::vector<QuestionOutcome>> Execution::read_round(const Schema& round,
                                                           PlanOptions& options, double from,
                                                           double span) {
    options.questions.clear();
    for (int i = 0; i < static_cast<int>(round.questions.size()); ++i)
        options.questions.push_back(i);
    options.indexed = schema_.questions.size() > 10;
    if (options.canvas_questions <= 0) options.canvas_questions = round_canvas_questions(schema_);
    auto planned = build_plan(round, request_.state, *setup_.tokenizer, options);
    if (!planned) return planned.error();
    plans_.push_back(std::move(*planned));
    const CanvasPlan& plan = plans_.back();
    auto reads = read_plan(plan, from, span);
    if (!reads) return reads.error();
    std::vector<QuestionOutcome> out(round.questions.size());
    collect(round, plan, *reads, 0, out);
    reads_.push_back(std::move(*reads));
    options.first_group += static_cast<int>(plan.groups.size());
    return out;
}

// A single pass with tournaments: Round 1 reads the narrow questions and every bracket, the
// final reads each wide question's finalists, a verify read (mode verify) weighs the final's
// winner against the catch-alls; each wide question's reads are then fused.
Result<void> Execution::read_tournaments(PlanOptions options, double from, double span) {
    struct Wide {
        Tournament t;
        std::vector<int> round1;  // its brackets' indices in Round 1
        std::vector<int> finalists;
        std::vector<int> verify;  // the verify read's options (its winner first)
        int reads = 0;            // canvas rows that held its brackets, final or verify read
    };
    const RoundOne one = round_one(schema_);
    std::vector<Wide> wide;
    for (const auto& w : one.wide) wide.push_back({w.tournament, w.brackets, {}, {}});
    const Schema& round1 = one.schema;
    const std::vector<int>& narrow = one.narrow;
    const bool verifies = std::any_of(wide.begin(), wide.end(), [](const Wide& w) {
        return w.t.mode == CatchAllMode::Verify && !w.t.catch_all.empty();
    });
    const double step = span / (verifies ? 3 : 2);
    auto first = read_round(round1, options, from, step);
    if (!first) return first.error();
    for (Wide& w : wide) w.reads += rows_reading(plans_.size() - 1, w.round1);
    for (size_t i = 0; i < narrow.size(); ++i)
        if (narrow[i] >= 0) d_.questions[narrow[i]] = std::move((*first)[i]);

    std::vector<std::vector<int>> finalists;
    for (Wide& w : wide) {
        std::vector<std::vector<double>> bracket_p;
        for (int i : w.round1) bracket_p.push_back((*first)[i].mean);
        w.finalists = choose_finalists(w.t, bracket_p);
        finalists.push_back(w.finalists);
    }
    const Schema finals = final_round(schema_, one, finalists);
    auto final_reads = read_round(finals, options, from + step, step);
    if (!final_reads) return final_reads.error();
    for (size_t w = 0; w < wide.size(); ++w)
        wide[w].reads += rows_reading(plans_.size() - 1, {static_cast<int>(w)});

    std::vector<std::optional<QuestionOutcome>> verified(wide.size());
    if (verifies) {
        Schema checks = round_schema(schema_);
        std::vector<int> which;
        for (size_t w = 0; w < wide.size(); ++w) {
            if (wide[w].t.mode != CatchAllMode::Verify || wide[w].t.catch_all.empty()) continue;
            const QuestionOutcome& f = (*final_reads)[w];
            wide[w].verify = {wide[w].finalists[static_cast<size_t>(f.winner)]};
            for (int c : wide[w].t.catch_all) wide[w].verify.push_back(c);
            const Question& q = schema_.questions[wide[w].t.question];
            checks.questions.push_back(sub_question(q, q.id, wide[w].verify));
            which.push_back(static_cast<int>(w));
        }
        auto checked = read_round(checks, options, from + 2 * step, step);
        if (!checked) return checked.error();
        for (size_t i = 0; i < which.size(); ++i) {
            verified[which[i]] = std::move((*checked)[i]);
            wide[which[i]].reads += rows_reading(plans_.size() - 1, {static_cast<int>(i)});
        }
    }

    for (size_t w = 0; w < wide.size(); ++w) {
        std::vector<QuestionOutcome> brackets;
        for (int i : wide[w].round1) brackets.push_back((*first)[i]);
        const Tournament& t = wide[w].t;
        d_.questions[t.question] = fuse_outcome(t, brackets, wide[w].finalists, (*final_reads)[w],
                                                verified[w], wide[w].verify);
        const Question& q = schema_.questions[t.question];
        WideRead record;
        record.strategy = "tournament";
        record.options = static_cast<int>(q.options.size());
        for (const auto& b : t.brackets) {
            std::vector<std::string> names;
            for (int o : bracket_read_options(t, static_cast<size_t>(&b - t.brackets.data())))
                names.push_back(q.options[static_cast<size_t>(o)].name);
            record.brackets.push_back(std::move(names));
        }
        for (int o : wide[w].finalists)
            record.finalists.push_back(q.options[static_cast<size_t>(o)].name);
        record.catch_all = t.catch_all.empty() ? "off" : std::string(to_string(t.mode));
        record.rounds = verified[w] ? 3 : 2;
        record.reads = wide[w].reads;
        d_.diagnostics.wide[q.id] = std::move(record);
    }
    return {};
}

// The canvas rows plans_[plan] read for groups holding any of `questions` (indices into that
// round's schema): brackets share rows, so a row counts once however many it holds.
int Execution::rows_reading(size_t plan, const std::vector<int>& questions) const {
    int rows = 0;
    const auto& groups = plans_[plan].groups;
    for (size_t g = 0; g < groups.size(); ++g) {
        const auto& slots = groups[g].answer_slots;
        const bool holds = std::any_of(slots.begin(), slots.end(), [&](const PlanSlot& slot) {
            return std::find(questions.begin(), questions.end(), slot.question_index) !=
                   questions.end();
        });
        if (holds) rows += static_cast<int>(reads_[plan][g].rows.size());
    }
    return rows;
}

// A wide question's outcome: per draw, the brackets' and the final's reads of that draw fused
// (draws pair up by index; a round with fewer reads repeats its own); the mean fused from the
// rounds' means, so that the final's winner is the winner.
QuestionOutcome Execution::fuse_outcome(const Tournament& t,
                                        const std::vector<QuestionOutcome>& brackets,
                                        const std::vector<int>& final_options,
                                        const QuestionOutcome& final_read,
                                        const std::optional<QuestionOutcome>& verify_read,
                                        const std::vector<int>& verify_options) const {
    const Question& q = schema_.questions[t.question];
    const int n = static_cast<int>(q.options.size());
    auto fuse = [&](const std::vector<std::vector<double>>& bracket_p,
                    const std::vector<double>& final_p, const std::vector<double>* verify_p) {
        if (!verify_p) return fuse_tournament(t, bracket_p, final_options, final_p, n);
        Scored merged = merge_verify(final_options, final_p, verify_options, *verify_p);
        return fuse_tournament(t, bracket_p, merged.options, merged.p, n);
    };
    QuestionOutcome o;
    o.id = q.id;
    o.type = q.type;
    o.labels = q.labels();
    o.alternatives = q.alternatives();
    size_t draws = final_read.per_read.size();
    for (const auto& b : brackets) draws = std::max(draws, b.per_read.size());
    if (verify_read) draws = std::max(draws, verify_read->per_read.size());
    auto nth = [](const std::vector<std::vector<double>>& reads, size_t k) -> const auto& {
        return reads[k % reads.size()];
    };
    for (size_t k = 0; k < draws; ++k) {
        std::vector<std::vector<double>> bracket_p;
        for (const auto& b : brackets) bracket_p.push_back(nth(b.per_read, k));
        o.per_read.push_back(fuse(bracket_p, nth(final_read.per_read, k),
                                  verify_read ? &nth(verify_read->per_read, k) : nullptr));
    }
    std::vector<std::vector<double>> bracket_means;
    for (const auto& b : brackets) bracket_means.push_back(b.mean);
    o.mean = fuse(bracket_means, final_read.mean, verify_read ? &verify_read->mean : nullptr);
    summarise_reads(o);
    o.pos = final_read.pos;
    o.label_mass = final_read.label_mass;
    o.argmax_is_label = final_read.argmax_is_label;
    for (const auto& b : brackets) o.argmax_is_label = o.argmax_is_label && b.argmax_is_label;
    return o;
}

// Thinking first: the thought is written once and every stage reads after it. Returns the
// prompt every stage starts from (empty for a single-pass decision).
Result<std::vector<TokenId>> Execution::think() {
    const engine::Tokenizer& tokenizer = *setup_.tokenizer;
    if (schema_.think <= 0) {
        if (!multi_pass_) return std::vector<TokenId>{};
        return staged_prompt_ids(schema_, request_.state, schema_.layout, tokenizer);
    }
    ThoughtRequest t;
    t.prompt_ids = thought_prompt_ids(schema_, request_.state, schema_.layout, tokenizer);
    const int canvas = setup_.plan.canvas_length;
    const int prompt = static_cast<int>(t.prompt_ids.size());
    if (setup_.max_context > 0 && prompt + schema_.think + canvas > setup_.max_context)
        return engine::bad_input("think " + std::to_string(schema_.think) + ": the prompt (" +
                                 std::to_string(prompt) + " tokens), the thought and a canvas of " +
                                 std::to_string(canvas) + " do not fit the model's context of " +
                                 std::to_string(setup_.max_context) +
                                 " tokens; accepted: think up to " +
                                 std::to_string(std::max(0, setup_.max_context - canvas - prompt)));
    t.max_tokens = schema_.think;
    t.seed = request_.seed;
    t.stop_id = thought_close_id(tokenizer);
    report(progress_, "thinking", 0);
    const auto thinking = std::chrono::steady_clock::now();
    auto written = reader_.write_thought(t, progress_, cancel_);
    if (!written) return written.error();
    Thought thought;
    thought.text = valid_utf8(written->text);
    thought.tokens = static_cast<int>(written->ids.size());
    thought.ids = written->ids;
    thought.closed = written->closed;
    thought.passes = written->passes;
    thought.ms = base::ms_since(thinking);
    d_.timings.encode_ms += written->encode_ms;
    d_.timings.decode_ms += written->decode_ms;
    d_.thought = std::move(thought);
    std::vector<TokenId> base = std::move(t.prompt_ids);
    base.insert(base.end(), written->ids.begin(), written->ids.end());
    base.push_back(t.stop_id);
    return base;
}

// A stage's questions whose ask_if is unmet are skipped; the rest go into `options`.
void Execution::skip_unmet(const std::vector<int>& stage_questions, int stage,
                           PlanOptions& options) {
    options.questions.clear();
    for (int qi : stage_questions) {
        const Question& q = schema_.questions[qi];
        if (auto unmet = unmet_condition(q, answered_)) {
            QuestionOutcome o = skipped_outcome(q);
            o.stage = stage;
            o.skip_because = unmet->because;
            o.skip_was = unmet->was;
            o.skip_wanted = unmet->wanted;
            d_.questions[qi] = std::move(o);
            answered_[q.id] = std::nullopt;
        } else {
            options.questions.push_back(qi);
        }
    }
}

// Single pass: one plan of every question. Multi-pass: one plan per stage, each after the
// answers of the stages before it.
Result<void> Execution::read_stages(const std::vector<TokenId>& base) {
    const std::vector<std::vector<int>> stages =
        multi_pass_ ? question_stages(schema_) : std::vector<std::vector<int>>{{}};
    PlanOptions options = setup_.plan;
    options.seed = request_.seed;
    std::vector<std::string> lines;
    const bool indexed = schema_.questions.size() > 10;
    const double read_from = schema_.think > 0 ? 0.3 : 0.0;
    plans_.reserve(stages.size());
    for (size_t st = 0; st < stages.size(); ++st) {
        if (multi_pass_) {
            skip_unmet(stages[st], static_cast<int>(st), options);
            if (options.questions.empty()) continue;  // the whole stage was skipped
            options.prefix = stage_prefix(base, lines, indexed, *setup_.tokenizer);
        }
        if (has_tournament_) return read_tournaments(options, read_from, 1.0 - read_from);
        auto planned = build_plan(schema_, request_.state, *setup_.tokenizer, options);
        if (!planned) return planned.error();
        plans_.push_back(std::move(*planned));
        const CanvasPlan& plan = plans_.back();
        const double span = (1.0 - read_from) / static_cast<double>(stages.size());
        auto stage_reads = read_plan(plan, read_from + span * st, span);
        if (!stage_reads) return stage_reads.error();
        collect(schema_, plan, *stage_reads, static_cast<int>(st), d_.questions);
        reads_.push_back(std::move(*stage_reads));
        options.first_group += static_cast<int>(plan.groups.size());
        if (!multi_pass_) break;
        // The later stages read after the tempered answers, as the decision reports them.
        for (int qi : options.questions) temper(static_cast<size_t>(qi));
        std::vector<std::string> ids;
        for (int qi : options.questions) {
            const QuestionOutcome& o = d_.questions[qi];
            answered_[o.id] = o.alternatives[o.winner];
            lines.push_back(o.id + (indexed ? "" : ": ") + o.labels[o.winner]);
            ids.push_back(o.id);
        }
        d_.stages.push_back(std::move(ids));
    }
    return {};
}

// The policy temperature (schema "temperature", which --temperature overrides), once per
// question: every read's label log-probabilities / T, the statistics computed again.
void Execution::temper(size_t question) {
    if (tempered_[question]) return;
    tempered_[question] = true;
    QuestionOutcome& o = d_.questions[question];
    if (o.skipped) return;
    apply_temperature(o, schema_.temperature.for_question(o.id, o.type));
}

// How the decision chose its reads and ran, over every plan it read.
void Execution::record_diagnostics() {
    DecisionDiagnostics& x = d_.diagnostics;
    if (!plans_.empty()) {
        const CanvasPlan& first = plans_.front();
        SamplesPolicy policy;
        policy.automatic = first.samples.automatic;
        policy.count = first.samples.count;
        if (policy.automatic) {
            policy.max = first.auto_max;
            policy.threshold = first.auto_threshold;
            for (size_t p = 0; p < plans_.size(); ++p)
                for (size_t g = 0; g < plans_[p].groups.size(); ++g) {
                    const GroupReads& reads = reads_[p][g];
                    policy.extended.push_back(reads.extended);
                    const auto& slots = plans_[p].groups[g].answer_slots;
                    for (size_t s = 0; s < slots.size() && s < reads.first_entropy.size(); ++s)
                        policy.first_read_entropy[slots[s].question] = reads.first_entropy[s];
                }
        }
        x.samples_policy = std::move(policy);
    }
    if (multi_pass_)
        x.conditioning = d_.stages.size() > 1 ? Conditioning::Prefill : Conditioning::SinglePass;
    x.seed = request_.seed;
    x.seed_token = schema_.seed_token;
    x.engine = setup_.engine;
    x.entropy_basis = "labels";  // entropies are of the label distributions
    record_temperature(schema_.temperature, x);
    // A wide question read in one read with a wide label set (tournaments record themselves).
    for (size_t i = 0; i < schema_.questions.size(); ++i) {
        const Question& q = schema_.questions[i];
        if (q.type != QuestionType::Choice || q.is_tournament() ||
            q.options.size() <= static_cast<size_t>(kMaxAlternatives))
            continue;
        WideRead record;
        record.strategy = std::string(to_string(q.label_set));
        record.options = static_cast<int>(q.options.size());
        record.reads = static_cast<int>(d_.questions[i].per_read.size());
        record.rounds = 1;
        x.wide[q.id] = std::move(record);
    }
}

Result<Decision> Execution::run() {
    report(progress_, "planning", 0);
    d_.questions.resize(schema_.questions.size());
    tempered_.assign(schema_.questions.size(), false);
    d_.layout = schema_.layout;
    auto base = think();
    if (!base) return base.error();
    if (auto ok = read_stages(*base); !ok) return ok.error();
    for (size_t i = 0; i < d_.questions.size(); ++i) temper(i);
    d_.cached_prompt_tokens = std::min(d_.cached_prompt_tokens, d_.prompt_tokens);
    d_.timings.total_ms = base::ms_since(started_);
    if (all_timed_ && d_.reads > 0)
        d_.timings.network_ms = std::max(0.0, d_.timings.total_ms - server_ms_);
    record_diagnostics();
    report(progress_, "done", 1);
    return std::move(d_);
}

}  // namespace

Result<Decision> execute_decision(const DecideRequest& request, const ExecutorSetup& setup,
                                  RowReader& reader, const ProgressFn& progress,
                                  const CancelToken& cancel) {
    if (!setup.tokenizer) return engine::engine_error("execute_decision: no tokenizer");
    return Execution(request, setup, reader, progress, cancel).run();
}

}  // namespace core
