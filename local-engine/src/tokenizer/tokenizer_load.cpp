// Reads a Hugging Face tokenizer.json of the Gemma family into the tables of Tokenizer::Impl.
// Only the pipeline Gemma uses is accepted (Replace ' ' -> U+2581, optional Split on ' ', BPE
// with byte fallback); anything else is an error naming the field, never a silent mis-encoding.

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

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
    if (!model.contains("vocab") || !model["vocab"].is_object())
        return bad_input(file + ": model.vocab must be an object of string -> id");
    if (!model.contains("merges") || !model["merges"].is_array())
        return bad_input(file + ": model.merges must be an array");
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

Result<std::shared_ptr<const Tokenizer::Impl>> load_tokenizer_impl(
    const std::filesystem::path& path) {
    const std::string file = path.string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return bad_input("tokenizer file " + file +
                         " not found (run scripts/prepare-tokenizer.sh BUILD_DIR to create it)");
    std::ifstream in(path, std::ios::binary);
    if (!in) return bad_input("tokenizer file " + file + " cannot be read");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

    json root;
    try {
        root = json::parse(text);
    } catch (const json::parse_error& e) {
        return bad_input(file + ": not valid JSON (error at byte " + std::to_string(e.byte) + ")");
    }
    text.clear();
    text.shrink_to_fit();
    if (!root.is_object())
        return bad_input(file + ": not a tokenizer.json (expected a JSON object)");
    if (auto ok = check_pipeline(file, root); !ok) return ok.error();

    auto impl = std::make_shared<Tokenizer::Impl>();
    impl->source = path;
    const json& model = root["model"];
    const json& vocab = model["vocab"];
    const json& added = root["added_tokens"];

    // Ids: the model's vocabulary, then the added tokens (which may reuse or extend ids).
    struct Entry {
        std::string text;
        int64_t id;
        bool special;
    };
    std::vector<Entry> entries;
    entries.reserve(vocab.size() + added.size());
    for (auto it = vocab.begin(); it != vocab.end(); ++it) {
        if (!it.value().is_number_integer())
            return bad_input(file + ": model.vocab[\"" + it.key() + "\"] must be an integer id");
        entries.push_back({it.key(), it.value().get<int64_t>(), false});
    }
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

    // Merges, as ["a", "b"] pairs (tokenizers >= 0.20) or "a b" strings. Parts that are not in
    // the vocabulary still take part in merging, so they get symbols of their own.
    const json& merges = model["merges"];
    impl->merges.reserve(merges.size());
    int32_t next_symbol = impl->vocab_size;
    auto symbol_of = [&](const std::string& s) {
        int32_t sym = impl->symbols.get(s);
        if (sym < 0) {
            sym = next_symbol++;
            impl->symbols.put(s, sym);
            if (const int32_t cp = single_codepoint(s); cp >= 0) impl->codepoint_symbol[cp] = sym;
        }
        return sym;
    };
    std::string left, right;
    for (size_t rank = 0; rank < merges.size(); ++rank) {
        const json& m = merges[rank];
        if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
            left = m[0].get_ref<const std::string&>();
            right = m[1].get_ref<const std::string&>();
        } else if (m.is_string() &&
                   m.get_ref<const std::string&>().find(' ') != std::string::npos) {
            const std::string& s = m.get_ref<const std::string&>();
            const size_t space = s.find(' ');
            left = s.substr(0, space);
            right = s.substr(space + 1);
        } else {
            return bad_input(file + ": model.merges[" + std::to_string(rank) +
                             "] must be \"left right\" or [left, right]");
        }
        if (left.empty() || right.empty())
            return bad_input(file + ": model.merges[" + std::to_string(rank) +
                             "] has an empty part");
        const int32_t l = symbol_of(left);
        const int32_t r = symbol_of(right);
        const int32_t result = symbol_of(left + right);
        impl->merges.put_if_absent(tokenizer_detail::pair_key(l, r),
                                   Tokenizer::Impl::Merge{static_cast<uint32_t>(rank), result});
    }
    return std::shared_ptr<const Tokenizer::Impl>(std::move(impl));
}

}  // namespace engine
