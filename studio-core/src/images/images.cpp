// Images in a decision (see core/images/images.h).
#include "core/images/images.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>

#include "core/net/http_client.h"

namespace core {

using engine::bad_input;

namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

uint32_t be32(std::string_view s, size_t at) {
    return uint32_t(uint8_t(s[at])) << 24 | uint32_t(uint8_t(s[at + 1])) << 16 |
           uint32_t(uint8_t(s[at + 2])) << 8 | uint32_t(uint8_t(s[at + 3]));
}
uint32_t le32(std::string_view s, size_t at) {
    return uint32_t(uint8_t(s[at])) | uint32_t(uint8_t(s[at + 1])) << 8 |
           uint32_t(uint8_t(s[at + 2])) << 16 | uint32_t(uint8_t(s[at + 3])) << 24;
}

// What a file that is not one of ours looks like, for the message.
std::string looks_like(std::string_view b) {
    if (starts_with(b, "GIF8")) return "a GIF image";
    if (starts_with(b, "BM")) return "a BMP image";
    if (b.find("<svg") != std::string_view::npos) return "an SVG drawing";
    if (starts_with(b, "%PDF")) return "a PDF document";
    if (b.empty()) return "an empty file";
    return "not an image this reader knows";
}

std::string size_text(size_t bytes) {
    return bytes >= (size_t(1) << 20) ? std::to_string(bytes >> 20) + " MiB"
                                      : std::to_string(bytes) + " bytes";
}

constexpr std::string_view kPng = "\x89PNG\r\n\x1a\n";
constexpr std::string_view kPngEnd = std::string_view("\0\0\0\0IEND\xae\x42\x60\x82", 12);

}  // namespace

std::string accepted_images() {
    return "PNG, JPEG or WebP, at most " + size_text(kMaxImageBytes) + " each, " +
           std::to_string(kMaxImages) + " per decision";
}

Result<ImageInput> image_from_bytes(std::string bytes, std::string_view source) {
    const std::string where(source);
    const std::string_view b = bytes;
    if (b.size() > kMaxImageBytes)
        return bad_input(where + ": " + size_text(b.size()) +
                         " is past the limit; accepted: " + accepted_images());
    std::string mime;
    std::string truncated;
    if (starts_with(b, kPng)) {
        mime = "image/png";
        // The first chunk is IHDR (13 bytes of data), the last IEND.
        if (b.size() < kPng.size() + 25 || b.substr(12, 4) != "IHDR" || be32(b, 8) != 13)
            truncated = "its header is cut short";
        else if (b.size() < kPngEnd.size() || b.substr(b.size() - kPngEnd.size()) != kPngEnd)
            truncated = "it does not end with the IEND chunk";
    } else if (starts_with(b, "\xff\xd8\xff")) {
        mime = "image/jpeg";
        if (b.size() < 4 || b.substr(b.size() - 2) != "\xff\xd9")
            truncated = "it does not end with the end-of-image marker";
    } else if (b.size() >= 12 && starts_with(b, "RIFF") && b.substr(8, 4) == "WEBP") {
        mime = "image/webp";
        if (size_t(le32(b, 4)) + 8 != b.size())
            truncated = "its RIFF size says " + std::to_string(le32(b, 4) + 8) +
                        " bytes, the file has " + std::to_string(b.size());
    } else {
        return bad_input(where + ": " + looks_like(b) + "; accepted: " + accepted_images() +
                         " (convert it, e.g. to PNG)");
    }
    if (!truncated.empty())
        return bad_input(where + ": a truncated or damaged " + mime.substr(6) + " (" + truncated +
                         "); accepted: " + accepted_images());
    return ImageInput{std::move(mime), std::move(bytes), where};
}

Result<ImageInput> read_image_file(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return bad_input(path + ": no such image file");
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return bad_input(path + ": cannot read: " + ec.message());
    if (size > kMaxImageBytes)
        return bad_input(path + ": " + size_text(size) +
                         " is past the limit; accepted: " + accepted_images());
    std::ifstream in(path, std::ios::binary);
    std::string bytes(size, '\0');
    if (!in.read(bytes.data(), std::streamsize(size)))
        return bad_input(path + ": cannot read the whole file");
    return image_from_bytes(std::move(bytes), path);
}

Result<ImageInput> image_from_data_uri(std::string_view uri) {
    const std::string shown = "data: URI";
    if (!starts_with(uri, "data:")) return bad_input("not a data: URI");
    const size_t comma = uri.find(',');
    if (comma == std::string_view::npos)
        return bad_input(shown + ": no ',' before the data (data:image/png;base64,...)");
    const std::string_view meta = uri.substr(5, comma - 5);
    if (meta.size() < 7 || meta.substr(meta.size() - 7) != ";base64")
        return bad_input(
            shown + ": not base64 (data:<type>;base64,<data>); accepted: " + accepted_images());
    // The base64 text of the largest image, with slack for line breaks.
    if (uri.size() - comma - 1 > kMaxImageBytes / 3 * 4 + 1024)
        return bad_input(shown + ": past the limit; accepted: " + accepted_images());
    auto bytes = base64_decode(uri.substr(comma + 1));
    if (!bytes) return bad_input(shown + ": " + bytes.error().message);
    auto image = image_from_bytes(std::move(*bytes), shown);
    if (!image) return image;
    // The declared type must be what the bytes are (an SVG labelled image/png is refused).
    const std::string_view declared = meta.substr(0, meta.size() - 7);
    if (!declared.empty() && declared != image->mime)
        return bad_input(shown + ": says " + std::string(declared) + " but holds " + image->mime);
    return image;
}

Result<ImageInput> load_image(const std::string& ref, double timeout_s) {
    if (starts_with(ref, "data:")) return image_from_data_uri(ref);
    if (starts_with(ref, "http://") || starts_with(ref, "https://")) {
        ensure_core_application();
        TransportOptions options;
        options.timeout_s = timeout_s;
        options.max_retries = 0;
        // The same trust store and proxies as every other client (SSL_CERT_FILE, HTTPS_PROXY, ...).
        if (auto ok = configure_network(options, process_environment()); !ok) return ok.error();
        const HttpTransport http(options);
        auto r = http.get(ref, engine::CancelToken());
        if (!r) return bad_input(ref + ": did not answer (" + r.error().message + ")");
        if (r->status != 200)
            return bad_input(ref + ": HTTP " + std::to_string(r->status) + " instead of an image");
        return image_from_bytes(std::move(r->body), ref);
    }
    return read_image_file(ref);
}

Result<std::vector<ImageInput>> load_images(const std::vector<std::string>& refs,
                                            double timeout_s) {
    if (int(refs.size()) > kMaxImages)
        return bad_input(std::to_string(refs.size()) + " images; accepted: " + accepted_images());
    std::vector<ImageInput> out;
    for (const auto& ref : refs) {
        auto image = load_image(ref, timeout_s);
        if (!image) return image.error();
        out.push_back(std::move(*image));
    }
    return out;
}

std::string data_uri(const ImageInput& image) {
    return "data:" + image.mime + ";base64," + base64_encode(image.bytes);
}

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
}

std::string base64_encode(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const uint32_t v = uint32_t(uint8_t(bytes[i])) << 16 |
                           uint32_t(uint8_t(bytes[i + 1])) << 8 | uint32_t(uint8_t(bytes[i + 2]));
        for (int s : {18, 12, 6, 0}) out += kAlphabet[(v >> s) & 63];
    }
    if (i < bytes.size()) {
        uint32_t v = uint32_t(uint8_t(bytes[i])) << 16;
        if (i + 1 < bytes.size()) v |= uint32_t(uint8_t(bytes[i + 1])) << 8;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

Result<std::string> base64_decode(std::string_view text) {
    std::array<int, 256> value{};
    value.fill(-1);
    for (int i = 0; i < 64; ++i) value[uint8_t(kAlphabet[i])] = i;
    std::string out;
    out.reserve(text.size() / 4 * 3);
    uint32_t acc = 0;
    int bits = 0;
    size_t padding = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n' || c == '\r' || c == ' ') continue;
        if (c == '=') {
            ++padding;
            continue;
        }
        const int v = value[uint8_t(c)];
        if (v < 0 || padding > 0)
            return bad_input("not base64 at character " + std::to_string(i + 1));
        acc = acc << 6 | uint32_t(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += char((acc >> bits) & 0xff);
        }
    }
    if (padding > 2 || bits >= 6) return bad_input("not base64: it ends in the middle of a byte");
    return out;
}

}  // namespace core
