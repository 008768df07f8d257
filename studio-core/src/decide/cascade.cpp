// The stage-2 cascade: which questions escalate, what the judge is asked, how its reply is read.
#include "core/decide/cascade.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "base/time.h"
#include "core/decide/chat_template.h"
#include "core/decide/read_stats.h"

namespace core {

namespace {

std::string upper(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::string percent(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * p);
    return buf;
}

// The first run of letters and digits in `text` ("B" of "B: yes", "**B**", "(B)").
std::string first_word(const std::string& text) {
    size_t a = 0;
    while (a < text.size() && !std::isalnum(static_cast<unsigned char>(text[a]))) ++a;
    size_t b = a;
    while (b < text.size() && std::isalnum(static_cast<unsigned char>(text[b]))) ++b;
    return text.substr(a, b - a);
}

// An index whose label equals `word` exactly, or whose alternative equals `text` ignoring case.
std::optional<int> named(const std::string& word, const std::string& text,
                         const QuestionOutcome& o) {
    for (size_t i = 0; i < o.labels.size(); ++i)
        if (o.labels[i] == word) return static_cast<int>(i);
    std::optional<int> found;
    for (size_t i = 0; i < o.alternatives.size(); ++i)
        if (upper(o.alternatives[i]) == upper(text)) {
            if (found) return std::nullopt;
            found = static_cast<int>(i);
        }
    return found;
}

// Stage 2's answer in place of stage 1's: its option with certainty (a judge states an answer,
// not a distribution); stage 1's distribution stays in the escalation record.
void replace_answer(QuestionOutcome& o, int winner) {
    o.mean.assign(o.labels.size(), 0.0);
    o.mean[static_cast<size_t>(winner)] = 1.0;
    o.per_read = {o.mean};
    o.stderr_labels.clear();
    o.stderr_winner.reset();
    summarise_reads(o);
}

}  // namespace

bool should_escalate(const QuestionOutcome& o, const CascadeOptions& options) {
    if (o.skipped || o.mean.empty()) return false;
    switch (options.settings.mode) {
        case CascadeMode::Off:
            return false;
        case CascadeMode::Entropy:
            return o.entropy >= options.settings.threshold;
        case CascadeMode::OnMiss: {
            auto it = options.expected.find(o.id);
            return it != options.expected.end() &&
                   o.alternatives[static_cast<size_t>(o.winner)] != it->second;
        }
    }
    return false;
}

std::vector<ChatMessage> stage2_messages(const Schema& schema, const Question& q,
                                         const QuestionOutcome& stage1,
                                         const nlohmann::ordered_json& state) {
    std::ostringstream sys;
    sys << "You are the second, more careful judge of a structured decision. A first judge "
           "answered the question below; its probabilities are given as a prior, which you may "
           "overrule. Reply with the label of your answer alone (for example "
        << stage1.labels.front() << "), nothing else.";
    std::ostringstream user;
    if (!schema.instructions.empty()) user << "Instructions: " << schema.instructions << "\n\n";
    user << "Question (" << to_string(q.type) << "): " << q.id;
    if (!q.instructions.empty()) user << ": " << q.instructions;
    user << "\n\nOptions:\n";
    for (size_t i = 0; i < stage1.labels.size(); ++i) {
        user << stage1.labels[i] << ": " << stage1.alternatives[i];
        if (q.type == QuestionType::Choice && i < q.options.size() &&
            !q.options[i].description.empty())
            user << " (" << q.options[i].description << ")";
        if (auto c = q.criteria.find(stage1.alternatives[i]); c != q.criteria.end())
            user << " (" << c->second << ")";
        user << "\n";
    }
    user << "\nDocument:\n" << state.dump(2) << "\n\nFirst judge's probabilities:";
    for (size_t i = 0; i < stage1.labels.size() && i < stage1.mean.size(); ++i)
        user << " " << stage1.labels[i] << " " << percent(stage1.mean[i]);
    user << "\n\nAnswer with one label.";
    return {{"system", sys.str()}, {"user", user.str()}};
}

std::optional<int> parse_stage2_answer(const std::string& reply, const QuestionOutcome& o) {
    std::string text = trim_whitespace(reply);
    // {"answer": "B"} (some judges answer in JSON whatever they are told)
    if (auto j = nlohmann::json::parse(text, nullptr, false);
        !j.is_discarded() && j.is_object() && j.contains("answer") && j["answer"].is_string())
        text = trim_whitespace(j["answer"].get<std::string>());
    if (text.empty()) return std::nullopt;
    if (auto whole = named(text, text, o)) return whole;
    const std::string word = first_word(text);
    return named(word, word, o);
}

void run_cascade(Decision& d, const DecideRequest& request, Backend& judge,
                 const CascadeOptions& options, const CancelToken& cancel) {
    if (options.settings.mode == CascadeMode::Off) return;
    CascadeRecord record;
    record.mode = options.settings.mode;
    record.threshold = options.settings.threshold;
    record.judge = judge.describe();
    for (size_t i = 0; i < d.questions.size() && i < request.schema.questions.size(); ++i) {
        QuestionOutcome& o = d.questions[i];
        QuestionOutcome::Escalation e;
        e.stage1_ms = d.timings.total_ms;  // one pass read every question
        if (!o.skipped && !o.mean.empty()) {
            e.stage1_winner = o.winner;
            e.stage1_confidence = o.confidence;
            e.stage1_entropy = o.entropy;
            e.stage1_mean = o.mean;
        }
        e.escalated = should_escalate(o, options);
        if (e.escalated) {
            ++record.escalated;
            GenerateRequest ask;
            ask.messages =
                stage2_messages(request.schema, request.schema.questions[i], o, request.state);
            ask.max_tokens = options.max_tokens;
            ask.seed = request.seed;
            ask.temperature = 0;
            const auto started = std::chrono::steady_clock::now();
            auto reply = cancel.cancelled() ? Result<Generation>(engine::bad_input("cancelled"))
                                            : judge.generate(ask, {}, cancel);
            e.stage2_ms = base::ms_since(started);
            if (!reply) {
                e.stage2_error = "stage 2 (cascade_endpoint " + record.judge +
                                 ") did not answer: " + reply.error().message +
                                 "; stage 1's answer kept";
            } else {
                e.stage2_text = trim_whitespace(reply->text).substr(0, 400);
                e.stage2_winner = parse_stage2_answer(reply->text, o);
                if (!e.stage2_winner) {
                    std::string labels;
                    for (const auto& l : o.labels) labels += (labels.empty() ? "" : ", ") + l;
                    e.stage2_error = "stage 2's reply names none of the labels " + labels +
                                     "; stage 1's answer kept";
                } else {
                    ++record.replaced;
                    replace_answer(o, *e.stage2_winner);
                }
            }
        }
        o.escalation = std::move(e);
    }
    d.diagnostics.cascade = std::move(record);
}

}  // namespace core
