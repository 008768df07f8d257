// Decoding a checked image into RGB rows (see core/images/images.h).
#include <QImage>
#include <cstring>

#include "core/images/images.h"

namespace core {

Result<DecodedImage> decode_image(const ImageInput& image) {
    QImage decoded;
    if (!decoded.loadFromData(reinterpret_cast<const uchar*>(image.bytes.data()),
                              static_cast<int>(image.bytes.size())))
        return engine::bad_input(
            image.source + ": cannot decode its " + image.mime +
            " here (Qt has no reader for it; install qt6-image-formats-plugins "
            "for WebP)");
    decoded = decoded.convertToFormat(QImage::Format_RGB888);
    DecodedImage out;
    out.width = decoded.width();
    out.height = decoded.height();
    const size_t row = static_cast<size_t>(out.width) * 3;
    out.rgb.resize(row * static_cast<size_t>(out.height));
    for (int y = 0; y < out.height; ++y)  // scan lines are padded to 4 bytes
        std::memcpy(out.rgb.data() + row * static_cast<size_t>(y), decoded.constScanLine(y), row);
    return out;
}

}  // namespace core
