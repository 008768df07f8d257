// Chat messages on the wire (see core/wire/chat_messages.h).
#include "core/wire/chat_messages.h"

#include <utility>

namespace core::wire {

std::string describe_json(const ojson& v) {
    switch (v.type()) {
        case ojson::value_t::null:
            return "null";
        case ojson::value_t::boolean:
            return std::string("a boolean (") + (v.get<bool>() ? "true" : "false") + ")";
        case ojson::value_t::number_integer:
        case ojson::value_t::number_unsigned:
        case ojson::value_t::number_float: {
            std::string n = v.dump();
            if (n.size() > 40) n = n.substr(0, 40) + "...";
            return "a number (" + n + ")";
        }
        case ojson::value_t::string:
            return "a string";
        case ojson::value_t::array:
            return v.empty() ? "an empty array" : "an array";
        case ojson::value_t::object:
            return "an object";
        default:
            return "a value of another kind";
    }
}

bool flag_of(const ojson& obj, const char* key) {
    return obj.is_object() && obj.contains(key) && obj[key].is_boolean() && obj[key].get<bool>();
}

ojson user_content(ojson text, const std::vector<ImageInput>& images) {
    if (images.empty()) return text;
    ojson parts = ojson::array();
    for (const ImageInput& image : images)
        parts.push_back({{"type", "image_url"}, {"image_url", {{"url", data_uri(image)}}}});
    parts.push_back({{"type", "text"}, {"text", std::move(text)}});
    return parts;
}

std::string role_of(const ojson& message) {
    return message.is_object() && message.contains("role") && message["role"].is_string()
               ? message["role"].get<std::string>()
               : std::string();
}

std::string message_text(const ojson& message, bool* has_image) {
    if (!message.is_object() || !message.contains("content")) return {};
    const ojson& c = message["content"];
    if (c.is_string()) return c.get<std::string>();
    std::string out;
    if (c.is_array())
        for (const auto& part : c) {
            if (!part.is_object()) continue;
            const std::string type = part.value("type", std::string());
            if (type == "text" && part.contains("text") && part["text"].is_string())
                out += part["text"].get<std::string>();
            else if ((type == "image_url" || type == "image") && has_image)
                *has_image = true;
        }
    return out;
}

namespace {

// Where an image part keeps its URL: the part itself (a string), image_url.url, or url.
const ojson& image_url_of(const ojson& part) {
    if (!part.is_object()) return part;
    const ojson* url = &part;
    if (part.contains("image_url")) url = &part["image_url"];
    if (url->is_object() && url->contains("url")) return (*url)["url"];
    if (part.contains("url")) return part["url"];
    return *url;
}

}  // namespace

Result<std::vector<ImageInput>> images_of(const ojson& list, const std::string& field) {
    std::vector<ImageInput> out;
    if (!list.is_array()) return out;
    for (size_t i = 0; i < list.size(); ++i) {
        const ojson& part = list[i];
        const std::string where = field + "[" + std::to_string(i) + "]";
        if (part.is_object() && part.value("type", std::string("image_url")) == "text") continue;
        const ojson& url = image_url_of(part);
        if (!url.is_string()) return engine::bad_input(where + ": an image must be a data: URI");
        const std::string text = url.get<std::string>();
        if (text.rfind("data:", 0) != 0)
            return engine::bad_input(where +
                                     ": this server fetches no image URL (DGEM_IMAGE_URLS=deny); "
                                     "send the image as a data: URI");
        auto image = image_from_data_uri(text);
        if (!image) return engine::bad_input(where + ": " + image.error().message);
        out.push_back(std::move(*image));
    }
    if (static_cast<int>(out.size()) > kMaxImages)
        return engine::bad_input(field + ": " + std::to_string(out.size()) +
                                 " images; accepted: " + accepted_images());
    return out;
}

namespace {

// A non-negative integer field of `object`, if it has one.
std::optional<int> count_of(const json& object, const char* key) {
    if (!object.is_object()) return std::nullopt;
    auto it = object.find(key);
    if (it == object.end() || !it->is_number_integer() || it->get<int64_t>() < 0 ||
        it->get<int64_t>() > 1'000'000'000)
        return std::nullopt;
    return static_cast<int>(it->get<int64_t>());
}

}  // namespace

PromptUsage prompt_usage(const json& reply) {
    PromptUsage u;
    if (!reply.is_object() || !reply.contains("usage")) return u;
    const json& usage = reply["usage"];
    for (auto [total, details] : {std::pair{"prompt_tokens", "prompt_tokens_details"},
                                  std::pair{"input_tokens", "input_tokens_details"}}) {
        if (!u.prompt_tokens) u.prompt_tokens = count_of(usage, total);
        if (!u.cached_tokens && usage.is_object() && usage.contains(details))
            u.cached_tokens = count_of(usage[details], "cached_tokens");
    }
    return u;
}

}  // namespace core::wire
