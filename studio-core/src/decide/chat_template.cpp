// Gemma 4 chat template rendering (see core/decide/chat_template.h for the format).
#include "core/decide/chat_template.h"

namespace core {

std::string trim_whitespace(const std::string& text) {
    const char* ws = " \t\n\r\f\v";
    auto first = text.find_first_not_of(ws);
    if (first == std::string::npos) return {};
    auto last = text.find_last_not_of(ws);
    return text.substr(first, last - first + 1);
}

namespace {

// A model turn in the history keeps only what follows its thought channel: the template drops
// earlier thoughts.
std::string strip_thought(const std::string& text) {
    std::string out;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t open = text.find("<|channel>", pos);
        if (open == std::string::npos) {
            out += text.substr(pos);
            break;
        }
        out += text.substr(pos, open - pos);
        size_t close = text.find("<channel|>", open);
        if (close == std::string::npos) break;
        pos = close + std::string("<channel|>").size();
    }
    return out;
}

}  // namespace

std::string render_chat(const std::vector<ChatMessage>& messages, bool thinking,
                        bool add_generation_prompt) {
    std::string out = "<bos>";
    size_t first = 0;
    bool has_system =
        !messages.empty() && (messages[0].role == "system" || messages[0].role == "developer");
    if (has_system || thinking) {
        out += "<|turn>system\n";
        if (thinking) out += "<|think|>\n";
        if (has_system) out += trim_whitespace(messages[0].content);
        out += "<turn|>\n";
        if (has_system) first = 1;
    }
    for (size_t i = first; i < messages.size(); ++i) {
        const auto& m = messages[i];
        bool model = m.role == "assistant" || m.role == "model";
        std::string role = model ? "model" : m.role;
        out += "<|turn>" + role + "\n";
        out += trim_whitespace(model ? strip_thought(m.content) : m.content);
        out += "<turn|>\n";
    }
    if (add_generation_prompt) {
        out += "<|turn>model\n";
        if (!thinking) out += "<|channel>thought\n<channel|>";
    }
    return out;
}

}  // namespace core
