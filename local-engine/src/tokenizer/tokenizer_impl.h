#pragma once
// The tokenizer's immutable tables, shared by every copy of an engine::Tokenizer. Filled once by
// the loader and never written afterwards, so all const methods are thread-safe.

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/tokenizer.h"
#include "tokenizer/hash_tables.h"

namespace engine {

// A byte trie of the added tokens (<bos>, <|turn>, "\n", ...). They are matched leftmost-longest
// in the raw text before any normalisation, as the Hugging Face and transformers.js tokenizers do.
class AddedTokenTrie {
  public:
    AddedTokenTrie() { first_.fill(-1); }
    void insert(std::string_view text, TokenId id);
    bool may_start(unsigned char byte) const { return first_[byte] >= 0; }
    // The longest added token that is a prefix of `text` (non-empty): {bytes, id}, or {0, -1}.
    std::pair<size_t, TokenId> longest_prefix(std::string_view text) const {
        int32_t node = first_[static_cast<unsigned char>(text[0])];
        std::pair<size_t, TokenId> best{0, -1};
        for (size_t i = 1; node >= 0; ++i) {
            if (tokens_[node] >= 0) best = {i, tokens_[node]};
            if (i == text.size()) break;
            const int32_t* next = edges_.get(edge(node, static_cast<unsigned char>(text[i])));
            node = next ? *next : -1;
        }
        return best;
    }

  private:
    static uint64_t edge(int32_t node, unsigned char byte) {
        return (uint64_t{static_cast<uint32_t>(node)} << 8) | byte;
    }
    std::array<int32_t, 256> first_{};
    std::vector<TokenId> tokens_;  // per node: the token ending there, or -1
    tokenizer_detail::U64Map<int32_t> edges_;
};

struct Tokenizer::Impl {
    std::filesystem::path source;
    int32_t vocab_size = 0;           // ids are 0 .. vocab_size-1
    std::vector<std::string> pieces;  // id -> vocabulary string
    std::vector<uint8_t> special;     // id -> 1 for special added tokens
    std::vector<int16_t> byte_value;  // id -> 0..255 for "<0xNN>" tokens, else -1

    // Every string BPE can produce -> symbol. Symbols below vocab_size are token ids; merge
    // parts that are not in the vocabulary get symbols from vocab_size upwards.
    tokenizer_detail::StringIdMap symbols;
    std::vector<int32_t> codepoint_symbol;  // code point -> symbol of that one character, or -1

    struct Merge {
        uint32_t rank = 0;
        int32_t result = -1;
    };
    tokenizer_detail::U64Map<Merge> merges;  // pair_key(left, right) -> merge

    AddedTokenTrie added;
    std::array<TokenId, 256> byte_tokens{};  // byte -> id of "<0xNN>", or -1
    TokenId unk = -1;

    // Appends the ids of one text section that contains no added token.
    void encode_section(std::string_view section, std::vector<TokenId>& out) const;
};

// Reads and indexes a tokenizer.json (tokenizer_load.cpp).
Result<std::shared_ptr<const Tokenizer::Impl>> load_tokenizer_impl(
    const std::filesystem::path& file);

}  // namespace engine
