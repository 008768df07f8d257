// Reads a Hugging Face tokenizer.json of the Gemma family into the tables of Tokenizer::Impl.
// Only the pipeline Gemma uses is accepted (Replace ' ' -> U+2581, optional Split on ' ', BPE
// with byte fallback); anything else is an error naming the field, never a silent mis-encoding.

#include <cstdio>

#include <nlohmann/json.hpp>

#include "tokenizer/json_cursor.h"
#include "tokenizer/tokenizer_impl.h"

namespace engine {
namespace {

using nlohmann::json;

constexpr std::string_view kSpaceMark = "\xE2\x96\x81";  // U+2581, Gemma's visible space

// Decodes one UTF-8 code point of a vocabulary string; -1 if `s` is not exactly one.
int32_t single_codepoint(std::string_view s) {
    if (s.empty()) return -1;
    const auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
    const unsigned char c = b(0);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || s.size() != len) return -1;
    int32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t i = 1; i < len; ++i) {
        if ((b(i) & 0xC0) != 0x80) return -1;
        cp = (cp << 6) | (b(i) & 0x3F);
    }
    return cp < 0x110000 ? cp : -1;
}

int byte_token_value(std::string_view piece) {
    // "<0xNN>" with upper-case hex digits, as tokenizers writes them.
    if (piece.size() != 6 || piece.substr(0, 3) != "<0x" || piece[5] != '>') return -1;
    int v = 0;
    for (char ch : piece.substr(3, 2)) {
        v <<= 4;
        if (ch >= '0' && ch <= '9')
            v |= ch - '0';
        else if (ch >= 'A' && ch <= 'F')
            v |= ch - 'A' + 10;
        else
            return -1;
    }
    return v;
}

std::string describe(const json& j) {
    std::string s = j.dump();
    return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

Result<void> check_pipeline(const std::string& file, const json& root) {
    const json& norm = root.value("normalizer", json());
    const bool gemma_norm = norm.is_object() && norm.value("type", "") == "Replace" &&
                            norm.contains("pattern") && norm["pattern"].is_object() &&
                            norm["pattern"].value("String", "") == " " &&
                            norm.value("content", "") == kSpaceMark;
    if (!gemma_norm)
        return bad_input(file + ": normalizer " + describe(norm) +
                         " is not supported (accepted: Replace \" \" -> \"\xE2\x96\x81\")");
    const json& pre = root.value("pre_tokenizer", json());
    const bool split_on_space = pre.is_object() && pre.value("type", "") == "Split" &&
                                pre.contains("pattern") && pre["pattern"].is_object() &&
                                pre["pattern"].value("String", "") == " ";
    // Splitting on " " after the normaliser removed every " " never splits anything.
    if (!pre.is_null() && !split_on_space)
        return bad_input(file + ": pre_tokenizer " + describe(pre) +
                         " is not supported (accepted: null, or Split on \" \")");
    const json& model = root.value("model", json());
    if (!model.is_object() || model.value("type", "") != "BPE")
        return bad_input(file + ": model.type must be \"BPE\"");
    if (!model.value("byte_fallback", false))
        return bad_input(file + ": model.byte_fallback must be true");
    for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix", "dropout"}) {
        if (model.contains(key) && !model[key].is_null())
            return bad_input(file + ": model." + key + " must be null");
    }
    if (model.value("ignore_merges", false))
        return bad_input(file + ": model.ignore_merges must be false");
    if (!root.contains("added_tokens") || !root["added_tokens"].is_array())
        return bad_input(file + ": added_tokens must be an array");
    return {};
}

}  // namespace

void AddedTokenTrie::insert(std::string_view text, TokenId id) {
    if (text.empty()) return;
    auto new_node = [&] {
        tokens_.push_back(-1);
        return static_cast<int32_t>(tokens_.size() - 1);
    };
    int32_t& first = first_[static_cast<unsigned char>(text[0])];
    if (first < 0) first = new_node();
    int32_t node = first;
    for (size_t i = 1; i < text.size(); ++i) {
        const uint64_t e = edge(node, static_cast<unsigned char>(text[i]));
        if (const int32_t* next = edges_.get(e)) {
            node = *next;
        } else {
            const int32_t created = new_node();
            edges_.put_if_absent(e, created);
            node = created;
        }
    }
    tokens_[node] = id;
}

namespace {

using tokenizer_detail::JsonCursor;

struct VocabEntry {
    std::string text;
    int64_t id;
};

// Merges as one arena of "leftright" strings plus where each splits, so that the merged string
// is a plain slice.
struct MergeList {
    std::string arena;
    std::vector<uint32_t> start;  // start of merge k; start[k+1] is its end
    std::vector<uint32_t> split;  // length of the left part
    size_t size() const { return split.size(); }
    std::string_view whole(size_t k) const {
        return std::string_view(arena).substr(start[k], start[k + 1] - start[k]);
    }
};

// The parts of tokenizer.json read with the cursor (vocab, merges) and the rest as a small DOM.
struct RawTokenizer {
    json root = json::object();  // everything except model.vocab and model.merges
    std::vector<VocabEntry> vocab;
    MergeList merges;
    bool has_vocab = false;
    bool has_merges = false;
};

bool read_vocab(JsonCursor& c, std::vector<VocabEntry>& out) {
    if (!c.expect('{')) return false;
    if (c.consume('}')) return true;
    do {
        VocabEntry e;
        if (!c.string(e.text) || !c.expect(':')) return false;
        if (!c.integer(e.id))
            return c.fail("model.vocab[\"" + e.text + "\"] must be an integer id");
        out.push_back(std::move(e));
    } while (c.consume(','));
    return c.expect('}');
}

bool read_merges(JsonCursor& c, MergeList& out) {
    if (!c.expect('[')) return false;
    out.start.push_back(0);
    if (c.consume(']')) return true;
    std::string left, right;
    do {
        const std::string where = "model.merges[" + std::to_string(out.size()) + "]";
        if (c.peek() == '[') {
            c.consume('[');
            if (!c.string(left) || !c.expect(',') || !c.string(right) || !c.expect(']'))
                return c.fail(where + " must be \"left right\" or [left, right]");
        } else if (c.peek() == '"') {
            std::string both;
            if (!c.string(both)) return false;
            const size_t space = both.find(' ');
            if (space == std::string::npos)
                return c.fail(where + " must be \"left right\" or [left, right]");
            left = both.substr(0, space);
            right = both.substr(space + 1);
        } else {
            return c.fail(where + " must be \"left right\" or [left, right]");
        }
        if (left.empty() || right.empty()) return c.fail(where + " has an empty part");
        out.arena += left;
        out.arena += right;
        out.split.push_back(static_cast<uint32_t>(left.size()));
        out.start.push_back(static_cast<uint32_t>(out.arena.size()));
    } while (c.consume(','));
    return c.expect(']');
}

bool read_small(JsonCursor& c, json& into, const std::string& key) {
    std::string_view raw;
    if (!c.raw_value(raw)) return false;
    into[key] = json::parse(raw, nullptr, /*allow_exceptions=*/false);
    if (into[key].is_discarded()) return c.fail("the value of \"" + key + "\" is not valid JSON");
    return true;
}

bool read_model(JsonCursor& c, RawTokenizer& raw) {
    json& model = raw.root["model"] = json::object();
    if (!c.expect('{')) return c.fail("\"model\" must be an object");
    if (c.consume('}')) return true;
    std::string key;
    do {
        if (!c.string(key) || !c.expect(':')) return false;
        if (key == "vocab") {
            raw.has_vocab = true;
            if (!read_vocab(c, raw.vocab)) return false;
        } else if (key == "merges") {
            raw.has_merges = true;
            if (!read_merges(c, raw.merges)) return false;
        } else if (!read_small(c, model, key)) {
            return false;
        }
    } while (c.consume(','));
    return c.expect('}');
}

bool read_root(JsonCursor& c, RawTokenizer& raw) {
    if (!c.consume('{')) return c.fail("not a tokenizer.json (expected a JSON object)");
    if (c.consume('}')) return true;
    std::string key;
    do {
        if (!c.string(key) || !c.expect(':')) return false;
        if (key == "model" && c.peek() == '{') {
            if (!read_model(c, raw)) return false;
        } else if (!read_small(c, raw.root, key)) {
            return false;
        }
    } while (c.consume(','));
    if (!c.expect('}')) return false;
    if (!c.at_end()) return c.fail("unexpected text after the JSON object");
    return true;
}

std::string line_column(std::string_view text, size_t offset) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return std::to_string(line) + ":" + std::to_string(column);
}

Result<std::string> read_file(const std::filesystem::path& path) {
    const std::string file = path.string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return bad_input("tokenizer file " + file +
                         " not found (run scripts/prepare-tokenizer.sh BUILD_DIR to create it)");
    std::string text;
    std::FILE* f = std::fopen(file.c_str(), "rb");
    if (!f) return bad_input("tokenizer file " + file + " cannot be read");
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec) text.resize(size);
    const size_t got = ec ? 0 : std::fread(text.data(), 1, text.size(), f);
    std::fclose(f);
    if (ec || got != text.size()) return bad_input("tokenizer file " + file + " cannot be read");
    return text;
}

}  // namespace

Result<std::shared_ptr<const Tokenizer::Impl>> load_tokenizer_impl(
    const std::filesystem::path& path) {
    const std::string file = path.string();
    auto text = read_file(path);
    if (!text) return text.error();

    RawTokenizer raw;
    {
        JsonCursor cursor(*text);
        if (!read_root(cursor, raw))
            return bad_input(file + ":" + line_column(*text, cursor.error_offset()) + ": " +
                             cursor.error());
    }
    text = std::string();
    const json& root = raw.root;
    if (auto ok = check_pipeline(file, root); !ok) return ok.error();
    if (!raw.has_vocab) return bad_input(file + ": model.vocab is missing");
    if (!raw.has_merges) return bad_input(file + ": model.merges is missing");

    auto impl = std::make_shared<Tokenizer::Impl>();
    impl->source = path;
    const json& model = root["model"];
    const json& added = root["added_tokens"];

    // Ids: the model's vocabulary, then the added tokens (which may reuse or extend ids).
    struct Entry {
        std::string text;
        int64_t id;
        bool special;
    };
    std::vector<Entry> entries;
    entries.reserve(raw.vocab.size() + added.size());
    for (VocabEntry& v : raw.vocab) entries.push_back({std::move(v.text), v.id, false});
    raw.vocab = {};
    const size_t first_added = entries.size();
    for (size_t i = 0; i < added.size(); ++i) {
        const json& a = added[i];
        if (!a.is_object() || !a.contains("id") || !a["id"].is_number_integer() ||
            !a.contains("content") || !a["content"].is_string())
            return bad_input(file + ": added_tokens[" + std::to_string(i) +
                             "] needs an integer \"id\" and a string \"content\"");
        for (const char* flag : {"lstrip", "rstrip", "single_word", "normalized"}) {
            if (a.value(flag, false))
                return bad_input(file + ": added_tokens[" + std::to_string(i) + "]." + flag +
                                 " = true is not supported");
        }
        entries.push_back(
            {a["content"].get<std::string>(), a["id"].get<int64_t>(), a.value("special", false)});
    }
    int64_t max_id = -1;
    for (const Entry& e : entries) {
        if (e.id < 0 || e.id >= (int64_t{1} << 24))
            return bad_input(file + ": token id " + std::to_string(e.id) + " of \"" + e.text +
                             "\" is out of range (accepted: 0 .. 16777215)");
        max_id = std::max(max_id, e.id);
    }
    impl->vocab_size = static_cast<int32_t>(max_id + 1);
    impl->pieces.assign(impl->vocab_size, std::string());
    impl->special.assign(impl->vocab_size, 0);
    impl->byte_value.assign(impl->vocab_size, -1);
    impl->byte_tokens.fill(-1);
    impl->symbols.reserve(entries.size() + 1024);
    for (size_t i = 0; i < entries.size(); ++i) {
        const Entry& e = entries[i];
        const auto id = static_cast<TokenId>(e.id);
        impl->pieces[id] = e.text;
        impl->symbols.put(e.text, id);
        if (i >= first_added) {
            impl->special[id] = e.special ? 1 : 0;
            impl->added.insert(e.text, id);
        }
    }
    for (TokenId id = 0; id < impl->vocab_size; ++id) {
        const int v = byte_token_value(impl->pieces[id]);
        if (v >= 0) {
            impl->byte_value[id] = static_cast<int16_t>(v);
            impl->byte_tokens[v] = id;
        }
    }
    const std::string unk =
        model.value("unk_token", json()).is_string() ? model["unk_token"].get<std::string>() : "";
    impl->unk = unk.empty() ? -1 : impl->symbols.get(unk);

    // Initial BPE symbols are single characters: index them by code point for the hot loop.
    impl->codepoint_symbol.assign(0x110000, -1);
    for (TokenId id = 0; id < impl->vocab_size; ++id) {
        const int32_t cp = single_codepoint(impl->pieces[id]);
        if (cp >= 0) impl->codepoint_symbol[cp] = impl->symbols.get(impl->pieces[id]);
    }

    // Merge parts that are not in the vocabulary still take part in merging, so they get
    // symbols of their own.
    const MergeList& merges = raw.merges;
    impl->merges.reserve(merges.size());
    int32_t next_symbol = impl->vocab_size;
    auto symbol_of = [&](std::string_view s) {
        int32_t sym = impl->symbols.get(s);
        if (sym < 0) {
            sym = next_symbol++;
            impl->symbols.put(s, sym);
            if (const int32_t cp = single_codepoint(s); cp >= 0) impl->codepoint_symbol[cp] = sym;
        }
        return sym;
    };
    for (size_t rank = 0; rank < merges.size(); ++rank) {
        const std::string_view whole = merges.whole(rank);
        const int32_t l = symbol_of(whole.substr(0, merges.split[rank]));
        const int32_t r = symbol_of(whole.substr(merges.split[rank]));
        const int32_t result = symbol_of(whole);
        impl->merges.put_if_absent(tokenizer_detail::pair_key(l, r),
                                   Tokenizer::Impl::Merge{static_cast<uint32_t>(rank), result});
    }
    return std::shared_ptr<const Tokenizer::Impl>(std::move(impl));
}

}  // namespace engine
