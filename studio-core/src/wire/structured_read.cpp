// vLLM structured reads on the wire (see core/wire/structured_read.h).
#include "core/wire/structured_read.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace core::wire {

ojson structured_read_request(const StructuredRead& read) {
    ojson body;
    if (!read.model.empty()) body["model"] = read.model;
    body["messages"] = ojson::array();
    for (const auto& m : read.messages)
        body["messages"].push_back({{"role", m.role}, {"content", m.content}});
    const int width = static_cast<int>(read.canvas_ids.size());
    body["max_tokens"] = width;
    body["logprobs"] = true;
    body["top_logprobs"] = read.top_logprobs;
    body["logprob_token_ids"] = read.label_ids;
    body["return_tokens_as_token_ids"] = true;
    body["chat_template_kwargs"] = {{"enable_thinking", read.thinking}};
    body["vllm_xargs"] = {{"diffusion_seed_canvas", read.canvas_ids},
                          {"diffusion_canvas_length", width},
                          {"diffusion_max_steps", read.max_steps},
                          {"diffusion_read_only", true},
                          {"diffusion_constrained", read.constrained}};
    return body;
}

namespace {

// A list of token ids below `vocab_size`; errors name `field` and the offending entry.
Result<std::vector<int32_t>> token_ids(const ojson& list, const std::string& field,
                                       int vocab_size) {
    std::vector<int32_t> ids;
    for (size_t i = 0; i < list.size(); ++i) {
        if (!list[i].is_number_integer() || list[i].get<int64_t>() < 0 ||
            list[i].get<int64_t>() >= vocab_size)
            return engine::bad_input(
                field + "[" + std::to_string(i) + "] = " + describe_json(list[i]) +
                " is not a token id in [0, " + std::to_string(vocab_size) + ")");
        ids.push_back(list[i].get<int32_t>());
    }
    return ids;
}

// The seeded canvas: its ids, as long as diffusion_canvas_length says, within the served
// canvas length, read in one step.
Result<std::vector<int32_t>> seeded_canvas(const ojson& x, int vocab_size, int canvas_length) {
    const ojson& seed = x["diffusion_seed_canvas"];
    if (!seed.is_array() || seed.empty())
        return engine::bad_input(
            "vllm_xargs.diffusion_seed_canvas must be a non-empty array of token ids");
    const int width =
        x.contains("diffusion_canvas_length") && x["diffusion_canvas_length"].is_number_integer()
            ? x["diffusion_canvas_length"].get<int>()
            : static_cast<int>(seed.size());
    if (static_cast<int>(seed.size()) != width)
        return engine::bad_input("vllm_xargs.diffusion_seed_canvas has " +
                                 std::to_string(seed.size()) + " ids; diffusion_canvas_length is " +
                                 std::to_string(width));
    if (width > canvas_length)
        return engine::bad_input("diffusion_canvas_length " + std::to_string(width) +
                                 " exceeds the served canvas length " +
                                 std::to_string(canvas_length));
    if (x.contains("diffusion_max_steps") && x["diffusion_max_steps"].is_number_integer() &&
        x["diffusion_max_steps"].get<int>() != 1)
        return engine::bad_input("this server reads with one decoder step (diffusion_max_steps 1)");
    return token_ids(seed, "vllm_xargs.diffusion_seed_canvas", vocab_size);
}

}  // namespace

Result<StructuredRead> structured_read_call(const ojson& body, int vocab_size, int canvas_length) {
    StructuredRead read;
    const ojson& x = body["vllm_xargs"];
    auto canvas = seeded_canvas(x, vocab_size, canvas_length);
    if (!canvas) return canvas.error();
    read.canvas_ids = std::move(*canvas);
    if (!body.contains("logprob_token_ids"))
        return engine::bad_input("structured reads need logprob_token_ids (the label ids to read)");
    const ojson& ids = body["logprob_token_ids"];
    if (!ids.is_array() || ids.empty() || ids.size() > 128)
        return engine::bad_input("logprob_token_ids must list 1 to 128 token ids");
    auto labels = token_ids(ids, "logprob_token_ids", vocab_size);
    if (!labels) return labels.error();
    read.label_ids = std::move(*labels);
    std::sort(read.label_ids.begin(), read.label_ids.end());
    read.label_ids.erase(std::unique(read.label_ids.begin(), read.label_ids.end()),
                         read.label_ids.end());
    read.constrained = flag_of(x, "diffusion_constrained");
    read.top_logprobs = body.contains("top_logprobs") && body["top_logprobs"].is_number_integer()
                            ? std::max(0, body["top_logprobs"].get<int>())
                            : 20;
    read.thinking = body.contains("chat_template_kwargs") &&
                    body["chat_template_kwargs"].is_object() &&
                    flag_of(body["chat_template_kwargs"], "enable_thinking");
    for (const auto& m : body["messages"]) read.messages.push_back({role_of(m), message_text(m)});
    return read;
}

std::vector<PositionLogprobs> position_logprobs(const StructuredRead& read,
                                                const std::vector<SlotRead>& slots) {
    const std::vector<int32_t>& labels = read.label_ids;
    std::vector<PositionLogprobs> out;
    for (const SlotRead& slot : slots) {
        std::vector<double> lps = slot.label_logprobs;
        if (read.constrained) {  // normalised over the label set
            const double mx = *std::max_element(lps.begin(), lps.end());
            double sum = 0;
            for (double v : lps) sum += std::exp(v - mx);
            for (double& v : lps) v -= mx + std::log(sum);
        }
        std::vector<size_t> order(labels.size());
        std::iota(order.begin(), order.end(), size_t{0});
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return lps[a] > lps[b]; });
        PositionLogprobs p;
        const size_t keep = std::max<size_t>(static_cast<size_t>(read.top_logprobs), labels.size());
        for (size_t k = 0; k < std::min(keep, order.size()); ++k)
            p.top.emplace_back(labels[order[k]], lps[order[k]]);
        p.chosen = read.constrained ? labels[order[0]] : slot.argmax_id;
        auto it = std::find(labels.begin(), labels.end(), p.chosen);
        if (it != labels.end()) p.chosen_logprob = lps[static_cast<size_t>(it - labels.begin())];
        out.push_back(std::move(p));
    }
    return out;
}

namespace {

std::string token_name(int32_t id) {
    return "token_id:" + std::to_string(id);
}

}  // namespace

ojson structured_read_reply(const StructuredReadReply& r, const std::string& id, int64_t created) {
    ojson content = ojson::array();
    for (const PositionLogprobs& p : r.positions) {
        ojson top = ojson::array();
        for (const auto& [token, logprob] : p.top)
            top.push_back({{"token", token_name(token)}, {"logprob", logprob}});
        ojson entry{{"token", token_name(p.chosen)}};
        entry["logprob"] = p.chosen_logprob ? ojson(*p.chosen_logprob) : ojson(nullptr);
        entry["top_logprobs"] = std::move(top);
        content.push_back(std::move(entry));
    }
    const int width = static_cast<int>(r.positions.size());
    return {
        {"id", id},
        {"object", "chat.completion"},
        {"created", created},
        {"model", r.model},
        {"choices", ojson::array({ojson{{"index", 0},
                                        {"message", {{"role", "assistant"}, {"content", r.text}}},
                                        {"logprobs", {{"content", content}}},
                                        {"finish_reason", "length"}}})},
        {"usage",
         {{"prompt_tokens", r.prompt_tokens},
          {"completion_tokens", width},
          {"total_tokens", r.prompt_tokens + width},
          // As vLLM with prompt-token details on: the prompt the prefix cache supplied.
          {"prompt_tokens_details", {{"cached_tokens", r.cached_tokens}}}}}};
}

namespace {

// One position's "token_id:<n>" top logprobs; other entries are skipped.
std::map<int32_t, double> top_of(const json& position) {
    std::map<int32_t, double> top;
    if (!position.contains("top_logprobs") || !position["top_logprobs"].is_array()) return top;
    for (const auto& t : position["top_logprobs"]) {
        if (!t.is_object() || !t.contains("token") || !t["token"].is_string() ||
            !t.contains("logprob") || !t["logprob"].is_number())
            continue;
        const std::string name = t["token"];
        if (name.rfind("token_id:", 0) != 0) continue;
        try {
            top[static_cast<int32_t>(std::stol(name.substr(9)))] = t["logprob"].get<double>();
        } catch (...) {
        }
    }
    return top;
}

}  // namespace

Result<StructuredReadResult> structured_read_from_reply(const json& c, const std::string& where) {
    const json* content = nullptr;
    if (c.contains("choices") && c["choices"].is_array() && !c["choices"].empty()) {
        const json& choice = c["choices"][0];
        if (choice.contains("logprobs") && choice["logprobs"].is_object() &&
            choice["logprobs"].contains("content") && choice["logprobs"]["content"].is_array())
            content = &choice["logprobs"]["content"];
    }
    if (!content)
        return engine::remote_error(where +
                                    ": reply has no choices[0].logprobs.content (does the server "
                                    "support diffusion structured reads?)");
    StructuredReadResult out;
    for (const auto& position : *content)
        out.positions.push_back(position.is_object() ? top_of(position)
                                                     : std::map<int32_t, double>{});
    out.usage = prompt_usage(c);
    return out;
}

}  // namespace core::wire
