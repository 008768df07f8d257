// Encoding: added tokens are split out of the raw text (leftmost-longest), every other section
// is normalised (' ' -> U+2581) and byte-pair merged as one word, then pieces outside the
// vocabulary fall back to their UTF-8 bytes as <0xNN> tokens.

#include <algorithm>

#include "tokenizer/tokenizer_impl.h"

namespace engine {
namespace {

constexpr int32_t kSpaceMarkCodepoint = 0x2581;
constexpr std::string_view kSpaceMark = "\xE2\x96\x81";

// Length of the well-formed UTF-8 sequence at s[i] and its code point, or {1, -1} for a byte that
// does not start one (it then stands alone and falls back to a byte token).
inline std::pair<size_t, int32_t> next_codepoint(std::string_view s, size_t i) {
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    if (c < 0x80) return {1, c};
    size_t len;
    int32_t cp, min;
    if ((c & 0xE0) == 0xC0) {
        len = 2, cp = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        len = 3, cp = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        len = 4, cp = c & 0x07, min = 0x10000;
    } else {
        return {1, -1};
    }
    if (i + len > s.size()) return {1, -1};
    for (size_t k = 1; k < len; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) return {1, -1};
        cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {1, -1};
    return {len, cp};
}

struct Symbol {
    int32_t sym;    // symbol id (a token id when < vocab_size), -1 for a character nobody knows
    int32_t start;  // byte range in the normalised word
    int32_t end;
    int32_t prev;
    int32_t next;  // -1 at the ends; a merged-away symbol has end == -1
};

struct Candidate {
    uint32_t rank;
    int32_t left;  // index of the left symbol: its start position breaks rank ties, leftmost first
    int32_t left_sym;
    int32_t right_sym;
    int32_t result;  // the merged symbol
    bool operator>(const Candidate& o) const {
        return rank != o.rank ? rank > o.rank : left > o.left;
    }
};

// Per-thread scratch buffers: encode() is const and called from several threads at once.
struct Scratch {
    std::string word;
    std::vector<Symbol> symbols;
    std::vector<Candidate> heap;
};
thread_local Scratch scratch;

// A thread that once encoded a huge text should not keep its buffers for good.
void trim_scratch() {
    constexpr size_t kKeepBytes = size_t{1} << 20;
    if (scratch.symbols.capacity() * sizeof(Symbol) > kKeepBytes) scratch = Scratch{};
}

}  // namespace

void Tokenizer::Impl::encode_section(std::string_view section, std::vector<TokenId>& out) const {
    Scratch& s = scratch;
    std::string& word = s.word;
    std::vector<Symbol>& syms = s.symbols;
    word.clear();
    syms.clear();
    const int32_t space_sym = codepoint_symbol[kSpaceMarkCodepoint];
    for (size_t i = 0; i < section.size();) {
        const auto start = static_cast<int32_t>(word.size());
        const int32_t index = static_cast<int32_t>(syms.size());
        if (section[i] == ' ') {
            word.append(kSpaceMark);
            syms.push_back({space_sym, start, start + 3, index - 1, index + 1});
            ++i;
            continue;
        }
        const auto [len, cp] = next_codepoint(section, i);
        word.append(section.substr(i, len));
        const int32_t sym = cp >= 0 ? codepoint_symbol[cp] : -1;
        syms.push_back({sym, start, static_cast<int32_t>(word.size()), index - 1, index + 1});
        i += len;
    }
    if (syms.empty()) return;
    syms.back().next = -1;

    // Merge the lowest-ranked adjacent pair (leftmost on ties) until no pair has a merge.
    std::vector<Candidate>& heap = s.heap;
    heap.clear();
    const auto consider = [&](int32_t left) {
        const int32_t right = syms[left].next;
        if (right < 0 || syms[left].sym < 0 || syms[right].sym < 0) return;
        if (const Merge* m =
                merges.get(tokenizer_detail::pair_key(syms[left].sym, syms[right].sym))) {
            heap.push_back({m->rank, left, syms[left].sym, syms[right].sym, m->result});
            std::push_heap(heap.begin(), heap.end(), std::greater<>{});
        }
    };
    for (int32_t i = 0; i + 1 < static_cast<int32_t>(syms.size()); ++i) consider(i);
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), std::greater<>{});
        const Candidate c = heap.back();
        heap.pop_back();
        Symbol& left = syms[c.left];
        // Stale when either side has changed since the pair was queued.
        if (left.end < 0 || left.sym != c.left_sym || left.next < 0) continue;
        Symbol& right = syms[left.next];
        if (right.sym != c.right_sym) continue;
        left.sym = c.result;
        left.end = right.end;
        left.next = right.next;
        right.end = -1;
        if (left.next >= 0) syms[left.next].prev = c.left;
        if (left.prev >= 0) consider(left.prev);
        consider(c.left);
    }

    for (int32_t i = 0; i >= 0; i = syms[i].next) {
        const Symbol& sy = syms[i];
        if (sy.sym >= 0 && sy.sym < vocab_size) {
            out.push_back(sy.sym);
            continue;
        }
        // Byte fallback: the piece's UTF-8 bytes as <0xNN> tokens, or <unk> if one is missing.
        const std::string_view bytes(word.data() + sy.start,
                                     static_cast<size_t>(sy.end - sy.start));
        const bool all_known = std::all_of(bytes.begin(), bytes.end(), [&](char ch) {
            return byte_tokens[static_cast<unsigned char>(ch)] >= 0;
        });
        if (all_known) {
            for (char ch : bytes) out.push_back(byte_tokens[static_cast<unsigned char>(ch)]);
        } else if (unk >= 0) {
            out.push_back(unk);
        }
    }
}

std::vector<TokenId> Tokenizer::encode(std::string_view text) const {
    std::vector<TokenId> out;
    if (!impl_ || text.empty()) return out;
    out.reserve(text.size() / 3 + 4);
    const Impl& t = *impl_;
    size_t start = 0;
    for (size_t i = 0; i < text.size();) {
        if (t.added.may_start(static_cast<unsigned char>(text[i]))) {
            const auto [len, id] = t.added.longest_prefix(text.substr(i));
            if (len > 0) {
                if (i > start) t.encode_section(text.substr(start, i - start), out);
                out.push_back(id);
                i += len;
                start = i;
                continue;
            }
        }
        ++i;
    }
    if (start < text.size()) t.encode_section(text.substr(start), out);
    trim_scratch();
    return out;
}

}  // namespace engine
