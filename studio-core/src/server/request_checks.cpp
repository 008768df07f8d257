// Request-body validation for dgem serve (see server/request_checks.h).
#include "server/request_checks.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>

#include "base/text.h"
#include "core/policy/json_input.h"

namespace core::server {

namespace {

std::string quoted(const std::string& field) {
    return "\"" + field + "\"";
}

// `"field" must be <accepted>; got <what it was>`.
std::string must_be(const std::string& field, const std::string& accepted, const ojson& got) {
    return quoted(field) + " must be " + accepted + "; got " + describe_json(got);
}

bool present(const ojson& obj, const char* key) {
    return obj.contains(key) && !obj[key].is_null();
}

bool integer_in(const ojson& v, int64_t lo, int64_t hi) {
    if (v.is_number_unsigned()) {
        const uint64_t u = v.get<uint64_t>();
        return u <= static_cast<uint64_t>(hi) && (lo <= 0 || u >= static_cast<uint64_t>(lo));
    }
    if (v.is_number_integer()) {
        const int64_t n = v.get<int64_t>();
        return n >= lo && n <= hi;
    }
    return false;
}

bool number_in(const ojson& v, double lo, double hi) {
    if (!v.is_number()) return false;
    const double d = v.get<double>();
    return std::isfinite(d) && d >= lo && d <= hi;
}

std::optional<std::string> check_optional_string(const ojson& obj, const char* key,
                                                 const std::string& field,
                                                 const std::string& what) {
    if (present(obj, key) && !obj[key].is_string()) return must_be(field, what, obj[key]);
    return std::nullopt;
}

std::optional<std::string> check_optional_bool(const ojson& obj, const char* key,
                                               const std::string& field) {
    if (present(obj, key) && !obj[key].is_boolean())
        return must_be(field, "true or false", obj[key]);
    return std::nullopt;
}

std::optional<std::string> check_optional_integer(const ojson& obj, const char* key,
                                                  const std::string& field, int64_t lo, int64_t hi,
                                                  const std::string& note = {}) {
    if (present(obj, key) && !integer_in(obj[key], lo, hi))
        return must_be(
            field, "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + note,
            obj[key]);
    return std::nullopt;
}

std::optional<std::string> check_optional_number(const ojson& obj, const char* key,
                                                 const std::string& field, double lo, double hi) {
    if (present(obj, key) && !number_in(obj[key], lo, hi)) {
        char range[64];
        std::snprintf(range, sizeof range, "a number from %g to %g", lo, hi);
        return must_be(field, range, obj[key]);
    }
    return std::nullopt;
}

const std::set<std::string>& known_roles() {
    static const std::set<std::string> roles = {"system",    "developer", "user",
                                                "assistant", "tool",      "function"};
    return roles;
}

// One content part of messages[i].content[j].
std::optional<std::string> check_part(const ojson& part, const std::string& field,
                                      const std::string& role) {
    if (!part.is_object())
        return must_be(field, "a content part object ({\"type\": \"text\", \"text\": ...})", part);
    if (!part.contains("type") || !part["type"].is_string())
        return must_be(field + ".type", "a string: text, image_url or refusal",
                       part.contains("type") ? part["type"] : ojson());
    const std::string type = part["type"].get<std::string>();
    const bool text_only = role == "system" || role == "developer" || role == "tool";
    if (type == "text") {
        if (!part.contains("text") || !part["text"].is_string())
            return must_be(field + ".text", "a string",
                           part.contains("text") ? part["text"] : ojson());
        return std::nullopt;
    }
    if ((type == "image_url" || type == "image") && role == "user") {
        if (type == "image_url") {
            const ojson* url = part.contains("image_url") ? &part["image_url"] : nullptr;
            const bool ok =
                url && ((url->is_object() && url->contains("url") && (*url)["url"].is_string()) ||
                        url->is_string());
            if (!ok)
                return must_be(field + ".image_url", "an object {\"url\": \"...\"}",
                               url ? *url : ojson());
        }
        return std::nullopt;
    }
    if (type == "refusal" && role == "assistant") {
        if (!part.contains("refusal") || !part["refusal"].is_string())
            return must_be(field + ".refusal", "a string",
                           part.contains("refusal") ? part["refusal"] : ojson());
        return std::nullopt;
    }
    std::string accepted = text_only             ? "text"
                           : role == "user"      ? "text or image_url"
                           : role == "assistant" ? "text or refusal"
                                                 : "text";
    return quoted(field + ".type") + " must be " + accepted + " in a " + role +
           " message; got a part of another type";
}

std::optional<std::string> check_message(const ojson& m, size_t i) {
    const std::string field = "messages[" + std::to_string(i) + "]";
    if (!m.is_object()) return must_be(field, "an object {\"role\", \"content\"}", m);
    if (!m.contains("role") || !m["role"].is_string())
        return must_be(field + ".role",
                       "a string: system, developer, user, assistant, tool or function",
                       m.contains("role") ? m["role"] : ojson());
    const std::string role = m["role"].get<std::string>();
    if (!known_roles().count(role))
        return quoted(field + ".role") +
               " must be one of system, developer, user, assistant, tool or function; got an "
               "unknown role";
    if (auto e = check_optional_string(m, "name", field + ".name", "a string")) return e;
    if (role == "tool" && !(m.contains("tool_call_id") && m["tool_call_id"].is_string()))
        return must_be(field + ".tool_call_id", "a string in a tool message",
                       m.contains("tool_call_id") ? m["tool_call_id"] : ojson());
    const bool has_content = present(m, "content");
    if (!has_content) {
        const bool assistant_call =
            role == "assistant" && (present(m, "tool_calls") || present(m, "function_call"));
        if (!assistant_call)
            return quoted(field + ".content") + " is required in a " + role +
                   " message (a string or an array of content parts); got " +
                   (m.contains("content") ? "null" : "no content");
        return std::nullopt;
    }
    const ojson& c = m["content"];
    if (c.is_string()) return std::nullopt;
    if (!c.is_array())
        return must_be(field + ".content", "a string or an array of content parts", c);
    if (c.empty())
        return quoted(field + ".content") +
               " must be a string or a non-empty array of content parts; got an empty array";
    for (size_t j = 0; j < c.size(); ++j)
        if (auto e = check_part(c[j], field + ".content[" + std::to_string(j) + "]", role))
            return e;
    return std::nullopt;
}

std::optional<std::string> check_vllm_xargs(const ojson& x) {
    if (!x.is_object()) return must_be("vllm_xargs", "an object", x);
    if (x.contains("diffusion_seed_canvas") && !x["diffusion_seed_canvas"].is_array())
        return must_be("vllm_xargs.diffusion_seed_canvas", "an array of token ids",
                       x["diffusion_seed_canvas"]);
    if (auto e = check_optional_integer(x, "diffusion_canvas_length",
                                        "vllm_xargs.diffusion_canvas_length", 1, 1 << 20))
        return e;
    if (auto e = check_optional_integer(x, "diffusion_max_steps", "vllm_xargs.diffusion_max_steps",
                                        1, 1 << 20))
        return e;
    for (const char* key : {"diffusion_read_only", "diffusion_constrained"})
        if (auto e = check_optional_bool(x, key, std::string("vllm_xargs.") + key)) return e;
    return std::nullopt;
}

}  // namespace

std::string new_error_id() {
    static std::atomic<uint64_t> counter{0};
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
    char id[64];
    std::snprintf(id, sizeof id, "err-%llx-%llu", static_cast<unsigned long long>(ms),
                  static_cast<unsigned long long>(counter.fetch_add(1)));
    return id;
}

void log_internal_error(const std::function<void(const std::string&)>& log, const std::string& id,
                        const std::string& detail) {
    const std::string line = "error " + id + ": " + detail;
    if (log)
        log(line);
    else
        std::fprintf(stderr, "%s\n", line.c_str());
}

std::optional<std::string> read_body(std::string_view text, ojson& out) {
    JsonInputError error;
    if (!parse_json_input_raw(text, out, error)) {
        const base::TextPosition at =
            base::text_position_of(text, error.offset, base::ColumnUnit::Bytes);
        return "malformed request body at byte " + std::to_string(error.offset) + " (line " +
               std::to_string(at.line) + ", column " + std::to_string(at.column) +
               "): " + error.message;
    }
    if (!out.is_object())
        return "the request body must be a JSON object; got " + describe_json(out);
    return std::nullopt;
}

std::string model_of(const ojson& body, const std::string& fallback) {
    if (body.contains("model") && body["model"].is_string() &&
        !body["model"].get_ref<const std::string&>().empty())
        return body["model"].get<std::string>();
    return fallback;
}

std::optional<std::string> check_chat_body(const ojson& body, int max_tokens) {
    if (auto e = check_optional_string(body, "model", "model", "a string (the model name)"))
        return e;
    if (!body.contains("messages"))
        return "\"messages\" is required: a non-empty array of {role, content}";
    const ojson& messages = body["messages"];
    if (!messages.is_array() || messages.empty())
        return must_be("messages", "a non-empty array of {role, content}", messages);
    if (messages.size() > 4096)
        return "\"messages\" must hold at most 4096 messages; got " +
               std::to_string(messages.size());
    for (size_t i = 0; i < messages.size(); ++i)
        if (auto e = check_message(messages[i], i)) return e;

    if (auto e = check_optional_bool(body, "stream", "stream")) return e;
    if (present(body, "stream_options")) {
        const ojson& so = body["stream_options"];
        if (!so.is_object()) return must_be("stream_options", "an object", so);
        if (!flag_of(body, "stream"))
            return "\"stream_options\" is only accepted with \"stream\": true";
        if (auto e = check_optional_bool(so, "include_usage", "stream_options.include_usage"))
            return e;
    }
    for (const char* key : {"max_tokens", "max_completion_tokens"})
        if (auto e = check_optional_integer(body, key, key, 1, max_tokens,
                                            " (this server's MAX_TOKENS)"))
            return e;
    if (auto e = check_optional_integer(body, "seed", "seed", 0, INT64_MAX)) return e;
    if (auto e = check_optional_number(body, "temperature", "temperature", 0, 2)) return e;
    if (auto e = check_optional_number(body, "top_p", "top_p", 0, 1)) return e;
    for (const char* key : {"presence_penalty", "frequency_penalty"})
        if (auto e = check_optional_number(body, key, key, -2, 2)) return e;
    if (auto e = check_optional_integer(body, "n", "n", 1, 1, " (this server answers one choice)"))
        return e;
    for (const char* key : {"logprobs", "return_tokens_as_token_ids"})
        if (auto e = check_optional_bool(body, key, key)) return e;
    if (auto e = check_optional_integer(body, "top_logprobs", "top_logprobs", 0, 20)) return e;
    if (auto e = check_optional_string(body, "user", "user", "a string")) return e;
    if (present(body, "stop")) {
        const ojson& stop = body["stop"];
        bool ok = stop.is_string() || (stop.is_array() && stop.size() <= 4);
        if (ok && stop.is_array())
            for (const auto& s : stop) ok = ok && s.is_string();
        if (!ok) return must_be("stop", "a string or an array of at most 4 strings", stop);
    }
    if (present(body, "logprob_token_ids") && !body["logprob_token_ids"].is_array())
        return must_be("logprob_token_ids", "an array of token ids", body["logprob_token_ids"]);
    if (present(body, "chat_template_kwargs")) {
        const ojson& k = body["chat_template_kwargs"];
        if (!k.is_object()) return must_be("chat_template_kwargs", "an object", k);
        if (auto e =
                check_optional_bool(k, "enable_thinking", "chat_template_kwargs.enable_thinking"))
            return e;
    }
    if (present(body, "vllm_xargs"))
        if (auto e = check_vllm_xargs(body["vllm_xargs"])) return e;
    return std::nullopt;
}

std::optional<std::string> check_systemone_body(const ojson& body) {
    if (auto e = check_optional_string(body, "model", "model", "a string (the model name)"))
        return e;
    if (auto e = check_optional_integer(body, "seed", "seed", 0, INT64_MAX)) return e;
    if (present(body, "images") && !body["images"].is_array())
        return must_be("images", "an array of images", body["images"]);
    return std::nullopt;
}

}  // namespace core::server
