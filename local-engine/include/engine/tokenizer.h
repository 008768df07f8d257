#pragma once
// Hugging Face `tokenizer.json` reader for the Gemma family: BPE with merges and byte fallback,
// spaces normalised to U+2581, no prefix space; added and special tokens are split out of the
// text before BPE. Encoding never adds <bos>: callers write it (the chat template does).

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/result.h"

namespace engine {

using TokenId = int32_t;

class Tokenizer {
public:
    // Reads and indexes a tokenizer.json. Errors name the file and what was wrong.
    static Result<Tokenizer> load(const std::filesystem::path& tokenizer_json);

    std::vector<TokenId> encode(std::string_view text) const;
    std::string decode(std::span<const TokenId> ids, bool skip_special = false) const;

    // The vocabulary string of one id (U+2581 kept, byte tokens as "<0xNN>").
    std::string piece(TokenId id) const;
    // The id of an exact vocabulary string or added token, if any.
    std::optional<TokenId> find(std::string_view piece) const;
    bool is_special(TokenId id) const;
    int32_t vocab_size() const;

    Tokenizer(const Tokenizer&) = default;  // cheap: the tables are shared and immutable
    Tokenizer& operator=(const Tokenizer&) = default;
    Tokenizer(Tokenizer&&) noexcept = default;
    Tokenizer& operator=(Tokenizer&&) noexcept = default;
    ~Tokenizer();

    struct Impl;

private:
    explicit Tokenizer(std::shared_ptr<const Impl> impl);
    std::shared_ptr<const Impl> impl_;
};

// Special token ids of DiffusionGemma (MODEL-SPEC section 6).
namespace tokens {
inline constexpr TokenId kPad = 0;
inline constexpr TokenId kEos = 1;
inline constexpr TokenId kBos = 2;
inline constexpr TokenId kToolResponse = 50;
inline constexpr TokenId kThink = 98;
inline constexpr TokenId kChannelOpen = 100;   // <|channel>
inline constexpr TokenId kChannelClose = 101;  // <channel|>
inline constexpr TokenId kTurnOpen = 105;      // <|turn>
inline constexpr TokenId kTurnClose = 106;     // <turn|>
inline constexpr TokenId kNewline = 107;
}  // namespace tokens

}  // namespace engine
