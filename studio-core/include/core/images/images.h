#pragma once
// Images in a decision (video frames are several): read from a file, a data: URI or an http(s)
// URL, checked (PNG, JPEG or WebP, complete, at most kMaxImageBytes), and carried as bytes; on
// the wire they are data: URIs (the chat route's image_url parts, /v1/systemone's "images"),
// as dgem's CLI sends them: the client fetches a URL itself, a server is never handed one.
// Errors name the file or URL and say what is accepted; nothing is sent after one.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/result.h"

namespace core {

using engine::Result;

inline constexpr size_t kMaxImageBytes = size_t(20) << 20;  // per image
inline constexpr int kMaxImages = 16;                       // per decision (video frames)

struct ImageInput {
    std::string mime;    // image/png, image/jpeg, image/webp
    std::string bytes;   // the encoded file, as read
    std::string source;  // the path or URL it came from (for messages; "data: URI" for one)
    bool operator==(const ImageInput&) const = default;
};

// What every error says is accepted.
std::string accepted_images();  // "PNG, JPEG or WebP, at most 20 MiB each, 16 per decision"

// The image type from its first bytes, checked complete (a PNG ends with IEND, a JPEG with its
// end marker, a WebP's RIFF size matches); `source` names it in errors.
Result<ImageInput> image_from_bytes(std::string bytes, std::string_view source);
Result<ImageInput> read_image_file(const std::string& path);
Result<ImageInput> image_from_data_uri(std::string_view uri);
// A file path, a data: URI, or an http(s) URL fetched here (timeout in seconds).
Result<ImageInput> load_image(const std::string& ref, double timeout_s = 30);
// Several, in order; checks the count too.
Result<std::vector<ImageInput>> load_images(const std::vector<std::string>& refs,
                                            double timeout_s = 30);

std::string data_uri(const ImageInput& image);  // data:<mime>;base64,<bytes>

// The pixels, as a vision tower takes them: 8-bit RGB rows (decoded with Qt's image readers).
struct DecodedImage {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;  // width * height * 3
};
Result<DecodedImage> decode_image(const ImageInput& image);

std::string base64_encode(std::string_view bytes);
Result<std::string> base64_decode(std::string_view text);  // standard alphabet, padding optional

}  // namespace core
