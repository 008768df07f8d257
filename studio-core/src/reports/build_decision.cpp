// Decision and comparison reports: the policy, the variables, the run and one block per question,
// built from the values the results and Compare views show.

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/decide/read_stats.h"
#include "core/evaluation/eval_suite.h"
#include "report_internal.h"

namespace core::report {

using detail::fixed;
using detail::ojson;

namespace {

const Question* find_question(const Schema& schema, const std::string& id) {
    for (const auto& q : schema.questions)
        if (q.id == id) return &q;
    return nullptr;
}

// What each label means in more words: criteria for yes/no and levels, option descriptions.
std::vector<std::string> label_descriptions(const Question& q) {
    std::vector<std::string> out;
    auto criterion = [&](const std::string& key) {
        auto it = q.criteria.find(key);
        return it == q.criteria.end() ? std::string() : it->second;
    };
    switch (q.type) {
        case QuestionType::Noul:
            out = {criterion("true"), criterion("false")};
            break;
        case QuestionType::Choice:
            for (const auto& o : q.options) out.push_back(o.description);
            break;
        case QuestionType::Score:
            for (const auto& l : q.levels) out.push_back(criterion(l));
            break;
    }
    return out;
}

ojson policy_json(const PolicyInfo& policy, const Schema& schema) {
    ojson qs = ojson::array();
    for (const auto& q : schema.questions)
        qs.push_back({{"id", q.id},
                      {"type", std::string(to_string(q.type))},
                      {"instructions", q.instructions},
                      {"labels", q.labels()},
                      {"alternatives", q.alternatives()},
                      {"descriptions", label_descriptions(q)}});
    return {{"name", policy.name},
            {"file", policy.file},
            {"instructions", schema.instructions},
            {"questions", qs}};
}

std::string value_text(const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

// The policy and its variables: the first sections of a decision and a comparison report.
void add_policy_sections(Report& r, const PolicyInfo& policy, const Schema& schema,
                         const nlohmann::json& variables) {
    Section s;
    s.title = "Policy";
    s.text = schema.instructions;
    s.facts = {{"Policy", policy.name, ""},
               {"File", policy.file, ""},
               {"Questions", std::to_string(schema.questions.size()), ""}};
    Table t;
    t.title = "Questions";
    t.columns = {"Question", "Type", "Label", "Means", "Description"};
    for (const auto& q : schema.questions) {
        const auto labels = q.labels();
        const auto alts = q.alternatives();
        const auto desc = label_descriptions(q);
        for (size_t k = 0; k < labels.size(); ++k)
            t.rows.push_back({k == 0 ? q.id : "", k == 0 ? std::string(to_string(q.type)) : "",
                              labels[k], k < alts.size() ? alts[k] : "",
                              k < desc.size() ? desc[k] : ""});
    }
    s.tables.push_back(std::move(t));
    r.sections.push_back(std::move(s));

    Section v;
    v.title = "Variables";
    Table vt;
    vt.columns = {"Variable", "Value"};
    if (variables.is_object())
        for (auto it = variables.begin(); it != variables.end(); ++it)
            vt.rows.push_back({it.key(), value_text(it.value())});
    if (vt.rows.empty()) v.text = "No variables.";
    v.tables.push_back(std::move(vt));
    r.sections.push_back(std::move(v));
}

// One question's block and its data.
std::pair<QuestionBlock, ojson> question_block(const QuestionOutcome& o, const Schema& schema,
                                               const std::string& ptr) {
    QuestionBlock b;
    b.id = o.id;
    b.type = std::string(to_string(o.type));
    b.labels = o.labels;
    b.alternatives = o.alternatives;
    if (const Question* q = find_question(schema, o.id)) {
        b.instructions = q->instructions;
        b.descriptions = label_descriptions(*q);
    }
    b.probabilities = o.mean;
    b.errors = o.stderr_labels;
    b.winner = o.winner;
    b.confidence = o.confidence;
    b.entropy = o.entropy;
    b.hesitation = o.hesitation;
    b.agreement = o.agreement;
    b.hesitation_class = std::string(to_string(o.hesitation_class()));
    for (const auto& row : o.per_read) b.draws.push_back(argmax(row));
    b.ptr = ptr;
    if (o.skipped) {
        b.skipped = skip_text(o);
        return {std::move(b), ojson{{"id", b.id},
                                    {"type", b.type},
                                    {"skipped", b.skipped},
                                    {"labels", o.labels},
                                    {"alternatives", o.alternatives}}};
    }
    const size_t w = static_cast<size_t>(std::max(0, o.winner));
    ojson j = {{"id", b.id},
               {"type", b.type},
               {"answer", w < o.labels.size() ? o.labels[w] : ""},
               {"alternative", w < o.alternatives.size() ? o.alternatives[w] : ""},
               {"confidence", o.confidence},
               {"entropy", o.entropy},
               {"hesitation", o.hesitation},
               {"hesitation_class", b.hesitation_class},
               {"agreement", o.agreement},
               {"stderr_winner", o.stderr_winner ? ojson(*o.stderr_winner) : ojson(nullptr)},
               {"labels", o.labels},
               {"alternatives", o.alternatives},
               {"probabilities", o.mean},
               {"stderr", b.errors},
               {"draws", b.draws},
               {"per_read", o.per_read}};
    return {std::move(b), std::move(j)};
}

CanvasSummary summary_or(const std::optional<CanvasSummary>& canvas, const Decision& d) {
    if (canvas) return *canvas;
    CanvasSummary s;
    s.layout = std::string(to_string(d.layout));
    s.prompt_tokens = d.prompt_tokens;
    s.reads = d.reads;
    s.width = d.canvas_width;
    s.groups = d.read_groups;
    s.answer_slots = static_cast<int>(d.questions.size());
    return s;
}

// The answers of a decision: a section of blocks, the data's "questions", and the CSV rows.
void add_answers(Report& r, const Decision& d, const Schema& schema, const std::string& item) {
    Section s;
    s.title = "Answers";
    ojson qs = ojson::array();
    for (size_t i = 0; i < d.questions.size(); ++i) {
        auto [block, j] = question_block(d.questions[i], schema, "/questions/" + std::to_string(i));
        s.questions.push_back(std::move(block));
        qs.push_back(std::move(j));
    }
    r.data["questions"] = qs;
    r.sections.push_back(std::move(s));
    (void)item;
}

// How a report names an image: a file by its name (not the folders it sits in), a URL without
// its user, query and fragment (they may carry credentials), a data: URI as such.
std::string image_name(const std::string& source) {
    const auto scheme = source.find("://");
    if (source.rfind("http://", 0) == 0 || source.rfind("https://", 0) == 0) {
        std::string rest = source.substr(scheme + 3);
        rest = rest.substr(0, rest.find_first_of("?#"));
        const auto slash = rest.find('/');
        const auto at = rest.rfind('@', slash);
        if (at != std::string::npos) rest = rest.substr(at + 1);
        return source.substr(0, scheme + 3) + rest;
    }
    if (source.rfind("data:", 0) == 0 || source == "data: URI") return "data: URI";
    const std::string file = std::filesystem::path(source).filename().string();
    return file.empty() ? source : file;
}

// The images a decision read: their facts in the data ("images") and a section that shows them.
void add_image_section(Report& r, const std::vector<ImageInput>& images) {
    if (images.empty()) return;
    Section s;
    s.title = images.size() == 1 ? "Image" : "Images";
    if (images.size() > 1) s.text = "Read in this order (video frames in sequence).";
    Table t;
    t.columns = {"#", "Image", "Type", "Pixels", "Bytes", "SHA-256"};
    t.numeric_columns = {0, 4};
    ojson list = ojson::array();
    for (size_t i = 0; i < images.size(); ++i) {
        const ImageInput& in = images[i];
        ReportImage img{image_name(in.source), in.mime, in.bytes, 0, 0};
        if (auto decoded = decode_image(in)) {
            img.width = decoded->width;
            img.height = decoded->height;
        }
        const std::string sha = eval::sha256_hex(in.bytes);
        list.push_back({{"name", img.name},
                        {"mime", img.mime},
                        {"bytes", in.bytes.size()},
                        {"width", img.width},
                        {"height", img.height},
                        {"sha256", sha}});
        const std::string ptr = "/images/" + std::to_string(i);
        t.rows.push_back({std::to_string(i + 1), img.name, img.mime,
                          std::to_string(img.width) + " \u00d7 " + std::to_string(img.height),
                          std::to_string(in.bytes.size()), sha});
        t.cell_ptrs.push_back({"", "", "", "", ptr + "/bytes", ""});
        s.images.push_back(std::move(img));
    }
    r.data["images"] = std::move(list);
    s.tables.push_back(std::move(t));
    r.sections.push_back(std::move(s));
}

// A report about one policy: provenance, the policy, its variables and the images the decision
// read (data and sections).
Report policy_report(Kind kind, std::string title, const Provenance& provenance,
                     const PolicyInfo& policy, const Schema& schema,
                     const nlohmann::json& variables, const std::vector<ImageInput>& images) {
    Report r;
    r.kind = kind;
    r.title = std::move(title);
    r.provenance = provenance;
    r.data = detail::base_data(r.kind, r.title, r.provenance);
    r.data["policy"] = policy_json(policy, schema);
    r.data["variables"] = variables.is_object() ? variables : nlohmann::json::object();
    add_policy_sections(r, policy, schema, variables);
    add_image_section(r, images);
    return r;
}

std::string probs_cell(const QuestionBlock& b) {
    std::string out;
    for (size_t k = 0; k < b.labels.size() && k < b.probabilities.size(); ++k)
        out += (out.empty() ? "" : ";") + b.labels[k] + "=" + detail::exact(b.probabilities[k]);
    return out;
}

const QuestionBlock* block_for(const Report& r, const std::string& id) {
    for (const auto& s : r.sections)
        for (const auto& b : s.questions)
            if (b.id == id) return &b;
    return nullptr;
}

}  // namespace

Report decision_report(const DecisionInput& in) {
    Report r = policy_report(Kind::Decision, "Decision: " + in.policy.name, in.provenance,
                             in.policy, in.schema, in.variables, in.images);

    const Decision& d = in.decision;
    const CanvasSummary c = summary_or(in.canvas, d);
    r.data["canvas"] = {{"layout", c.layout}, {"prompt_tokens", c.prompt_tokens},
                        {"width", c.width},   {"slots", c.answer_slots},
                        {"groups", c.groups}, {"reads", c.reads}};
    r.data["samples"] = d.samples;
    r.data["backend"] = d.backend;
    const Timings& t = d.timings;
    r.data["timings"] = {{"total_ms", t.total_ms},     {"encode_ms", t.encode_ms},
                         {"decode_ms", t.decode_ms},   {"readout_ms", t.readout_ms},
                         {"network_ms", t.network_ms}, {"queue_ms", t.queue_ms}};
    Section run;
    run.title = "Run";
    run.facts = {{"Endpoint", r.provenance.endpoint, ""},
                 {"Model", d.model, ""},
                 {"Layout", c.layout, ""},
                 {"Prompt tokens", std::to_string(c.prompt_tokens), "/canvas/prompt_tokens"},
                 {"Canvas width", std::to_string(c.width), "/canvas/width"},
                 {"Slots", std::to_string(c.answer_slots), "/canvas/slots"},
                 {"Read groups", std::to_string(c.groups), "/canvas/groups"},
                 {"Reads decoded", std::to_string(c.reads), "/canvas/reads"},
                 {"Noise draws per question", std::to_string(d.samples), "/samples"},
                 {"Total ms", fixed(t.total_ms, 1), "/timings/total_ms"},
                 {"Encode ms", fixed(t.encode_ms, 1), "/timings/encode_ms"},
                 {"Decode ms", fixed(t.decode_ms, 1), "/timings/decode_ms"},
                 {"Readout ms", fixed(t.readout_ms, 1), "/timings/readout_ms"}};
    if (d.cached_prompt_tokens > 0) {
        r.data["canvas"]["cached_prompt_tokens"] = d.cached_prompt_tokens;
        // Beside the count it is a part of.
        const auto prompt_fact =
            std::find_if(run.facts.begin(), run.facts.end(),
                         [](const Fact& f) { return f.ptr == "/canvas/prompt_tokens"; });
        run.facts.insert(prompt_fact + 1,
                         {"Prompt tokens cached", std::to_string(d.cached_prompt_tokens),
                          "/canvas/cached_prompt_tokens"});
    }
    if (t.network_ms > 0)
        run.facts.push_back({"Network ms", fixed(t.network_ms, 1), "/timings/network_ms"});
    if (t.queue_ms > 0)
        run.facts.push_back({"Queued ms", fixed(t.queue_ms, 1), "/timings/queue_ms"});
    r.sections.push_back(std::move(run));

    add_answers(r, d, in.schema, in.policy.name);

    r.csv.columns = {
        "item",   "question",     "type",    "answer",     "alternative",      "probability",
        "stderr", "confidence",   "entropy", "hesitation", "hesitation_class", "agreement",
        "reads",  "probabilities"};
    for (const auto& s : r.sections)
        for (const auto& b : s.questions) {
            const size_t w = static_cast<size_t>(b.winner);
            r.csv.rows.push_back(
                {in.policy.name, b.id, b.type, w < b.labels.size() ? b.labels[w] : "",
                 w < b.alternatives.size() ? b.alternatives[w] : "",
                 w < b.probabilities.size() ? detail::exact(b.probabilities[w]) : "",
                 w < b.errors.size() ? detail::exact(b.errors[w]) : "", detail::exact(b.confidence),
                 detail::exact(b.entropy), detail::exact(b.hesitation), b.hesitation_class,
                 detail::exact(b.agreement), std::to_string(b.draws.size()), probs_cell(b)});
        }
    return r;
}

Report comparison_report(const ComparisonInput& in) {
    const compare::Comparison& c = in.comparison;
    Report r = policy_report(Kind::Comparison, "Slot vs generative: " + in.policy.name,
                             in.provenance, in.policy, in.schema, in.variables, in.images);
    r.data["comparison"] = ojson(c.to_json());
    r.data["latency_ratio"] = c.latency_ratio();

    Section sum;
    sum.title = "Summary";
    const bool valid = c.generation && c.generative.valid;
    sum.facts = {
        {"Endpoint", r.provenance.endpoint, ""},
        {"Slot passes", std::to_string(c.slot_timing.passes), "/comparison/slot/passes"},
        {"Generative passes", std::to_string(c.generative_timing.passes),
         "/comparison/generative/passes"},
        {"Slot latency ms", fixed(c.slot_timing.latency_ms, 1), "/comparison/slot/latency_ms"},
        {"Generative latency ms", fixed(c.generative_timing.latency_ms, 1),
         "/comparison/generative/latency_ms"},
        {"Latency ratio (generative / slot)", fixed(c.latency_ratio(), 2), "/latency_ratio"},
        {"Agreement", std::to_string(c.agreeing) + " of " + std::to_string(c.compared), ""},
        {"Generative reply", !c.generation ? "failed" : (valid ? "valid" : "invalid"), ""}};
    if (!c.generation_error.empty())
        sum.facts.push_back({"Generative error", c.generation_error, ""});
    else if (c.generation && !c.generative.valid)
        sum.facts.push_back({"Why invalid", c.generative.reason(), ""});
    if (c.generation) {
        sum.facts.push_back({"Completion tokens", std::to_string(c.generation->completion_tokens),
                             "/comparison/generative/completion_tokens"});
        sum.facts.push_back({"Finish reason", c.generation->finish_reason, ""});
    }
    if (!c.slot_error.empty()) sum.facts.push_back({"Slot error", c.slot_error, ""});

    Table t;
    t.title = "Answers side by side";
    t.columns = {"Question",   "Slot answer",       "Probability",
                 "Hesitation", "Generative answer", "Agree"};
    t.numeric_columns = {2};
    auto answer = [](const compare::QuestionComparison& q, int k) {
        if (k < 0 || static_cast<size_t>(k) >= q.labels.size()) return std::string("-");
        return q.labels[static_cast<size_t>(k)] + " " +
               (static_cast<size_t>(k) < q.alternatives.size()
                    ? q.alternatives[static_cast<size_t>(k)]
                    : "");
    };
    for (size_t i = 0; i < c.questions.size(); ++i) {
        const auto& q = c.questions[i];
        const bool slot_ok = q.slot_winner >= 0;
        t.rows.push_back({q.id, answer(q, q.slot_winner),
                          slot_ok ? percent(q.slot_probability) : "-",
                          slot_ok ? std::string(to_string(q.hesitation_class)) : "-",
                          answer(q, q.generative), q.agree ? "yes" : "no"});
        t.cell_ptrs.push_back(
            {"", "",
             slot_ok ? "/comparison/questions/" + std::to_string(i) + "/slot/probability" : "", "",
             "", ""});
    }
    sum.tables.push_back(std::move(t));
    r.sections.push_back(std::move(sum));

    if (c.generation) {
        Section raw;
        raw.title = "Generative reply (raw)";
        raw.text = c.generation->text.empty() ? "(empty reply)" : c.generation->text;
        r.sections.push_back(std::move(raw));
    }
    if (c.slot) {
        add_answers(r, *c.slot, in.schema, in.policy.name);
        r.sections.back().title = "Slot readout";
    }

    r.csv.columns = {"item",
                     "question",
                     "slot_answer",
                     "slot_alternative",
                     "slot_probability",
                     "hesitation_class",
                     "generative_answer",
                     "generative_alternative",
                     "agree",
                     "generative_valid",
                     "reasons",
                     "slot_latency_ms",
                     "generative_latency_ms",
                     "slot_passes",
                     "generative_passes",
                     "probabilities"};
    for (const auto& q : c.questions) {
        auto label = [&](int k) {
            return k >= 0 && static_cast<size_t>(k) < q.labels.size()
                       ? q.labels[static_cast<size_t>(k)]
                       : std::string();
        };
        auto alt = [&](int k) {
            return k >= 0 && static_cast<size_t>(k) < q.alternatives.size()
                       ? q.alternatives[static_cast<size_t>(k)]
                       : std::string();
        };
        const QuestionBlock* b = block_for(r, q.id);
        r.csv.rows.push_back(
            {in.policy.name, q.id, label(q.slot_winner), alt(q.slot_winner),
             q.slot_winner >= 0 ? detail::exact(q.slot_probability) : "",
             q.slot_winner >= 0 ? std::string(to_string(q.hesitation_class)) : "",
             label(q.generative), alt(q.generative), q.agree ? "true" : "false",
             valid ? "true" : "false", c.generation ? c.generative.reason() : c.generation_error,
             detail::exact(c.slot_timing.latency_ms), detail::exact(c.generative_timing.latency_ms),
             std::to_string(c.slot_timing.passes), std::to_string(c.generative_timing.passes),
             b ? probs_cell(*b) : ""});
    }
    return r;
}

}  // namespace core::report
