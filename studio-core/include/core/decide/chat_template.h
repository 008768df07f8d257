#pragma once
// The Gemma 4 / DiffusionGemma chat template as text. A system (or developer) message opens a
// `<|turn>system` turn; user and assistant turns follow as `<|turn>user` / `<|turn>model`, each
// content trimmed and closed with `<turn|>\n`; the generation prompt is `<|turn>model\n` and,
// with thinking off, the empty thought block `<|channel>thought\n<channel|>`. Thinking on puts
// `<|think|>\n` at the start of the system turn (a system turn is opened for it if needed).
// Tokenize the result with engine::Tokenizer::encode: the special tokens are split out there.

#include <string>
#include <vector>

#include "core/decide/backend.h"

namespace core {

std::string render_chat(const std::vector<ChatMessage>& messages, bool thinking = false,
                        bool add_generation_prompt = true);

// Strips what Jinja's `trim` strips: leading and trailing white space.
std::string trim_whitespace(const std::string& text);

}  // namespace core
