#pragma once
// Chat messages on the wire (OpenAI's chat-completions shape), shared by every protocol that
// carries them: a message's role and text, images as image_url parts holding data: URIs, and
// the prompt-token usage a reply reports.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/images/images.h"

namespace core::wire {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

// A user message's content: the text alone, or image_url parts (data: URIs) before the text, as
// dgem's client sends them.
ojson user_content(ojson text, const std::vector<ImageInput>& images);

// What a JSON value is, for messages: "null", "a boolean", "a number (1.5)", "a string",
// "an array", "an object". String contents are never quoted.
std::string describe_json(const ojson& v);

// `obj[key]` when it is a boolean, else false.
bool flag_of(const ojson& obj, const char* key);

// A message's role, or "" when it has none.
std::string role_of(const ojson& message);

// A message's text: a string, or the text parts of a content array. Sets `has_image` when a
// part is an image.
std::string message_text(const ojson& message, bool* has_image = nullptr);

// The images a request carries, in order: image_url parts of a user message, or
// /v1/systemone's "images" (strings or {"url"}). Only data: URIs: dgem serve fetches no URL
// (dgem's DGEM_IMAGE_URLS=deny), so a client sends the bytes. Errors name the part.
Result<std::vector<ImageInput>> images_of(const ojson& list, const std::string& field);

// Prompt tokens and prompt-cache hits from a reply's `usage`, in either spelling: the chat
// form's (prompt_tokens, prompt_tokens_details.cached_tokens: OpenAI, vLLM, dgem serve) or
// /v1/systemone's (input_tokens, input_tokens_details.cached_tokens).
struct PromptUsage {
    std::optional<int> prompt_tokens;
    std::optional<int> cached_tokens;
};
PromptUsage prompt_usage(const json& reply);

}  // namespace core::wire
