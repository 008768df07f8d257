// engine::Tokenizer: loading, decoding and vocabulary queries. Encoding is in
// tokenizer_encode.cpp, the tokenizer.json reader in tokenizer_load.cpp.

#include "engine/tokenizer.h"

#include "tokenizer/tokenizer_impl.h"

namespace engine {
namespace {

constexpr std::string_view kSpaceMark = "\xE2\x96\x81";

bool is_valid_utf8(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        size_t len;
        uint32_t cp, min;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            len = 2, cp = c & 0x1F, min = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3, cp = c & 0x0F, min = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4, cp = c & 0x07, min = 0x10000;
        } else {
            return false;
        }
        if (i + len > s.size()) return false;
        for (size_t k = 1; k < len; ++k) {
            const auto b = static_cast<unsigned char>(s[i + k]);
            if ((b & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (b & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += len;
    }
    return true;
}

// Byte tokens decode as a group: valid UTF-8 as itself, otherwise U+FFFD per byte.
void flush_bytes(std::string& bytes, std::string& out) {
    if (bytes.empty()) return;
    if (is_valid_utf8(bytes)) {
        out += bytes;
    } else {
        for (size_t i = 0; i < bytes.size(); ++i) out += "\xEF\xBF\xBD";
    }
    bytes.clear();
}

}  // namespace

Tokenizer::Tokenizer(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
Tokenizer::~Tokenizer() = default;

Result<Tokenizer> Tokenizer::load(const std::filesystem::path& tokenizer_json) {
    auto impl = load_tokenizer_impl(tokenizer_json);
    if (!impl) return impl.error();
    return Tokenizer(std::move(impl).value());
}

std::string Tokenizer::decode(std::span<const TokenId> ids, bool skip_special) const {
    std::string out;
    if (!impl_) return out;
    const Impl& t = *impl_;
    std::string bytes;
    for (const TokenId id : ids) {
        if (id < 0 || id >= t.vocab_size) continue;  // not ours: nothing to print
        if (skip_special && t.special[id]) continue;
        if (t.byte_value[id] >= 0) {
            bytes.push_back(static_cast<char>(t.byte_value[id]));
            continue;
        }
        flush_bytes(bytes, out);
        const std::string& piece = t.pieces[id];
        for (size_t pos = 0;;) {
            const size_t mark = piece.find(kSpaceMark, pos);
            if (mark == std::string::npos) {
                out.append(piece, pos, std::string::npos);
                break;
            }
            out.append(piece, pos, mark - pos);
            out.push_back(' ');
            pos = mark + kSpaceMark.size();
        }
    }
    flush_bytes(bytes, out);
    return out;
}

std::string Tokenizer::piece(TokenId id) const {
    if (!impl_ || id < 0 || id >= impl_->vocab_size) return {};
    return impl_->pieces[id];
}

std::optional<TokenId> Tokenizer::find(std::string_view piece) const {
    if (!impl_) return std::nullopt;
    const int32_t sym = impl_->symbols.get(piece);
    if (sym < 0 || sym >= impl_->vocab_size) return std::nullopt;
    return sym;
}

bool Tokenizer::is_special(TokenId id) const {
    return impl_ && id >= 0 && id < impl_->vocab_size && impl_->special[id] != 0;
}

int32_t Tokenizer::vocab_size() const {
    return impl_ ? impl_->vocab_size : 0;
}

}  // namespace engine
