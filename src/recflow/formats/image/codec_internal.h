// The per-format halves of DecodeImage/Encode* and their shared pixel-limit check.
#pragma once

#include <cstdint>
#include <span>

#include "recflow/core/result.h"
#include "recflow/formats/image/image_codec.h"

namespace recflow::image::internal {

/// A DataError unless width × height ≤ max_pixels (and both are in 1..Image::kMaxDimension).
Status CheckPixelLimit(const char* format, int64_t width, int64_t height, int64_t max_pixels);

/// JPEG decoding through TurboJPEG; `options` validated.
Result<Image> DecodeJpeg(std::span<const uint8_t> bytes, const DecodeOptions& options, const ImageAllocator& allocate);
/// PNG decoding through libpng; `options` validated.
Result<Image> DecodePng(std::span<const uint8_t> bytes, const DecodeOptions& options, const ImageAllocator& allocate);

}  // namespace recflow::image::internal
