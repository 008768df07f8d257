// dgem plan: shows the canvas plan of a policy without running a model: the prompt each read
// group sends, the answer template with its slots, and the seeded canvas of every read.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli.h"
#include "core/comparison/compare.h"
#include "core/decide/canvas_plan.h"
#include "core/decide/chat_template.h"
#include "core/decide/stages.h"
#include "core/policy/json_input.h"
#include "core/policy/policy.h"
#include "data_paths.h"
#include "decision_input.h"
#include "engine/generation_width.h"

namespace {

// A token as a person reads it: its text, with line breaks and control tokens made visible.
std::string show_token(const engine::Tokenizer& tok, engine::TokenId id) {
    std::string text = tok.decode(std::vector<engine::TokenId>{id});
    std::string out;
    for (char c : text) out += c == '\n' ? std::string("\\n") : std::string(1, c);
    return out;
}

std::string join_ints(const std::vector<engine::TokenId>& ids) {
    std::ostringstream s;
    for (size_t i = 0; i < ids.size(); ++i) s << (i ? " " : "") << ids[i];
    return s.str();
}

void print_plan(const core::CanvasPlan& plan, const core::Schema& schema,
                const engine::Tokenizer& tok, std::ostream& out) {
    out << "layout " << core::to_string(plan.layout) << ", isolate "
        << core::to_string(plan.isolate) << ", seed_token " << core::to_string(plan.seed_token)
        << ", samples "
        << (plan.samples.automatic ? "auto (up to " + std::to_string(plan.auto_max) +
                                         " reads when a first-read entropy exceeds " +
                                         std::to_string(plan.auto_threshold).substr(0, 5) + ")"
                                   : std::to_string(plan.samples.count))
        << ", seed " << plan.seed << ", canvas length " << plan.canvas_length << "\n";
    if (plan.staged) {
        // Later stages read after the answers of earlier ones: only the first can be shown.
        const auto stages = core::question_stages(schema);
        out << "staged: " << stages.size() << " stage(s)";
        for (size_t s = 0; s < stages.size(); ++s) {
            std::string ids;
            for (int qi : stages[s]) ids += (ids.empty() ? "" : ", ") + schema.questions[qi].id;
            out << (s ? "; " : ": ") << s + 1 << ": " << ids;
        }
        out << "\n  this is stage 1; each later stage's prompt adds the answers before it";
        if (plan.thought_pending)
            out << "\n  think " << schema.think
                << ": the model first writes up to that many thought tokens; they replace the "
                   "empty thought block at the prompt's end";
        out << "\n";
    }
    for (size_t g = 0; g < plan.groups.size(); ++g) {
        const core::ReadGroup& group = plan.groups[g];
        std::string ids;
        for (int qi : group.questions) ids += (ids.empty() ? "" : ", ") + schema.questions[qi].id;
        out << "\nread group " << g + 1 << " (" << (group.isolated ? "isolated" : "joint")
            << "): " << ids << "\n";
        out << "  prompt: " << group.prompt_ids.size() << " tokens ("
            << (plan.layout == core::Layout::SchemaFirst
                    ? "system: questions, user: state"
                    : "user: <user_text> state, <instructions> questions")
            << ")\n";
        out << "  canvas: width " << group.width << " (" << group.template_length
            << " template tokens, <turn|>, " << group.width - group.template_length - 1
            << " <pad>)\n    ";
        for (int i = 0; i < group.template_length; ++i) {
            auto slot = std::find_if(group.answer_slots.begin(), group.answer_slots.end(),
                                     [&](const core::PlanSlot& s) { return s.pos == i; });
            if (slot != group.answer_slots.end())
                out << "[" << slot->question << "@" << i << "]";
            else
                out << show_token(tok, group.canvas_ids[i]);
        }
        out << "<turn|>\n  slots:\n";
        for (const auto& s : group.answer_slots) {
            out << "    " << s.question << " at " << s.pos << ":";
            for (size_t l = 0; l < s.labels.size(); ++l)
                out << " " << s.labels[l] << "=" << s.label_ids[l];
            out << "\n";
        }
        out << "  label ids in one read: " << group.label_union.size() << " (at most "
            << core::kMaxLabelIds << ")\n  reads:\n";
        for (const auto& r : plan.rows) {
            if (r.group != static_cast<int>(g)) continue;
            std::vector<engine::TokenId> noise;
            for (const auto& s : group.answer_slots) noise.push_back(r.canvas_ids[s.pos]);
            out << "    draw " << r.draw + 1 << " seed " << r.seed << ": slot ids "
                << join_ints(noise) << "\n";
        }
        if (plan.samples.automatic && plan.auto_max > 1)
            out << "    (+" << plan.auto_max - 1 << " more draws from seed " << group.seed + 1
                << " if the first read hesitates)\n";
    }
}

// The prompt the comparison's generative side sends for this input, as the local engine
// tokenizes it, and the canvas width the engine's generation of it uses.
nlohmann::json generative_json(const dgem::DecisionInput& input, const engine::Tokenizer& tok,
                               int canvas_length) {
    const auto request = core::compare::generative_request(input.schema, input.state, input.seed);
    return {{"prompt_ids", tok.encode(core::render_chat(request.messages))},
            {"max_tokens", request.max_tokens},
            {"width", engine::generation_canvas_width(canvas_length, 0, request.max_tokens)}};
}

// --batch FILE: one JSON object of template variables per line, each planned as -d would plan
// it, one JSON line out per line in (the demo model's corpus is laid out by this very code).
int run_batch(const cli::Args& args, const std::string& batch_path, const engine::Tokenizer& tok,
              const core::PlanOptions& base_options) {
    auto path = args.find("template");
    if (!path) return cli::fail_bad_input("--batch needs -t/--template FILE (a .json.tmpl policy)");
    auto policy = core::load_policy_file(*path);
    if (!policy) return cli::fail(policy.error());
    std::ifstream in(batch_path);
    if (!in) return cli::fail_bad_input("--batch " + batch_path + ": cannot be read");
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string where = batch_path + ":" + std::to_string(number);
        auto data = core::parse_json_input(line, where);
        if (!data) return cli::fail(data.error());
        if (!data->is_object())
            return cli::fail_bad_input(where + ": a line must be a JSON object of variables");
        auto rendered = core::render_policy_data(*policy, *data);
        if (!rendered) return cli::fail(rendered.error());
        dgem::DecisionInput input;
        auto schema = core::parse_schema(rendered->schema, where);
        if (!schema) return cli::fail(schema.error());
        input.schema = std::move(*schema);
        input.state = rendered->state;
        if (auto applied = dgem::apply_decision_overrides(args, input); !applied)
            return cli::fail(applied.error());
        core::PlanOptions options = base_options;
        options.seed = input.seed;
        auto plan = core::build_plan(input.schema, input.state, tok, options);
        if (!plan) return cli::fail(engine::bad_input(where + ": " + plan.error().message));
        auto out = core::plan_json(*plan, input.schema);
        if (args.has("generative"))
            out["generative"] = generative_json(input, tok, options.canvas_length);
        std::cout << out.dump() << "\n";
    }
    return cli::kExitOk;
}

int run_plan(const cli::Args& args) {
    const std::string tok_path = args.get("tokenizer", app_paths::tokenizer_json());
    auto tok = engine::Tokenizer::load(tok_path);
    if (!tok) return cli::fail(engine::bad_input("--tokenizer: " + tok.error().message));
    core::PlanOptions options;
    if (auto canvas = args.find("canvas")) {
        bool digits = !canvas->empty() && canvas->size() < 6 &&
                      canvas->find_first_not_of("0123456789") == std::string::npos;
        if (!digits)
            return cli::fail_bad_input("--canvas " + *canvas + ": accepted: a length such as 256");
        options.canvas_length = std::stoi(*canvas);
    }
    if (auto batch = args.find("batch")) return run_batch(args, *batch, *tok, options);
    auto input = dgem::load_decision_input(args);
    if (!input) return cli::fail(input.error());
    options.seed = input->seed;
    auto plan = core::build_plan(input->schema, input->state, *tok, options);
    if (!plan) return cli::fail(engine::bad_input(input->source + ": " + plan.error().message));
    // Images need the model: how many soft tokens each takes depends on its vision tower.
    const size_t images = input->images.size();
    if (args.has("json")) {
        auto out = core::plan_json(*plan, input->schema);
        out["images"] = images;
        if (args.has("generative"))
            out["generative"] = generative_json(*input, *tok, options.canvas_length);
        std::cout << out.dump() << "\n";
    } else {
        print_plan(*plan, input->schema, *tok, std::cout);
        if (images > 0)
            std::cout << "\n"
                      << images
                      << " image(s): a model places each at the start of the user turn as boi, "
                         "its soft tokens and eoi (how many depends on its vision tower); the "
                         "prompts above are the text only\n";
    }
    return cli::kExitOk;
}

}  // namespace

DGEM_COMMAND(plan) {
    auto options = dgem::decision_options();
    options.push_back(
        {"tokenizer", 0, "FILE", "tokenizer.json (default: the one built with dgem)"});
    options.push_back({"canvas", 0, "N", "the served canvas length (default 256)"});
    options.push_back({"json", 0, "", "print the plan as JSON"});
    options.push_back({"generative", 0, "",
                       "with --json: add the comparison's generative prompt_ids and canvas width"});
    options.push_back({"batch", 0, "FILE",
                       "plan every line of FILE (a JSON object of variables each) with -t; "
                       "prints one JSON plan per line"});
    return cli::CommandSpec{
        "plan",
        "show the canvas plan of a policy: prompt, answer template, slots, seeded reads",
        "dgem plan -t FILE [-v key=value ...] [--layout L] [--seed N] [--json] [--tokenizer FILE]",
        "Renders the policy, builds the prompt and the answer template the model reads, finds\n"
        "each question's slot and draws the seeded noise of every read, exactly as a decision\n"
        "would, without loading a model. --json prints prompt_ids, canvas_ids, width, layout,\n"
        "reads and slots (and every read group under \"groups\").",
        options,
        run_plan};
}
