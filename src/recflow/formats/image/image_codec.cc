// Image format sniffing, decode options and the decode dispatch.
#include "recflow/formats/image/image_codec.h"

#include <cstring>
#include <string>

#include "recflow/formats/image/codec_internal.h"

namespace recflow::image {

namespace {
constexpr uint8_t kJpegMagic[] = {0xFF, 0xD8, 0xFF};
constexpr uint8_t kPngMagic[] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

template <size_t N>
bool StartsWith(std::span<const uint8_t> bytes, const uint8_t (&magic)[N]) {
  return bytes.size() >= N && std::memcmp(bytes.data(), magic, N) == 0;
}
}  // namespace

std::string_view ImageFormatName(ImageFormat format) {
  switch (format) {
    case ImageFormat::kJpeg: return "jpeg";
    case ImageFormat::kPng: return "png";
    case ImageFormat::kUnknown: break;
  }
  return "unknown";
}

ImageFormat Sniff(std::span<const uint8_t> bytes) {
  if (StartsWith(bytes, kJpegMagic)) return ImageFormat::kJpeg;
  if (StartsWith(bytes, kPngMagic)) return ImageFormat::kPng;
  return ImageFormat::kUnknown;
}

Status DecodeOptions::Validate() const {
  if (channels != 0 && channels != 1 && channels != 3 && channels != 4) {
    return Status::InvalidArgument("decode channels must be 0 (as stored), 1, 3 or 4, not " +
                                   std::to_string(channels));
  }
  if (min_height < 0 || min_width < 0) return Status::InvalidArgument("decode min_height/min_width must be >= 0");
  if (max_pixels < 1) return Status::InvalidArgument("decode max_pixels must be >= 1");
  return Status::OK();
}

Result<Image> DecodeImage(std::span<const uint8_t> bytes, const DecodeOptions& options,
                          const ImageAllocator& allocate) {
  RETURN_NOT_OK(options.Validate());
  switch (Sniff(bytes)) {
    case ImageFormat::kJpeg: return internal::DecodeJpeg(bytes, options, allocate);
    case ImageFormat::kPng: return internal::DecodePng(bytes, options, allocate);
    case ImageFormat::kUnknown: break;
  }
  return Status::DataError("unsupported image format: " + std::to_string(bytes.size()) +
                           " bytes that are neither JPEG (FF D8 FF) nor PNG (89 50 4E 47 0D 0A 1A 0A)");
}

namespace internal {

Status CheckPixelLimit(const char* format, int64_t width, int64_t height, int64_t max_pixels) {
  if (width < 1 || height < 1 || width > Image::kMaxDimension || height > Image::kMaxDimension) {
    return Status::DataError(std::string(format) + " image size " + std::to_string(width) + "x" +
                             std::to_string(height) + " outside 1.." + std::to_string(Image::kMaxDimension));
  }
  if (width * height > max_pixels) {
    return Status::DataError(std::string(format) + " image of " + std::to_string(width) + "x" +
                             std::to_string(height) + " pixels exceeds the limit of " + std::to_string(max_pixels) +
                             " pixels (DecodeOptions::max_pixels)");
  }
  return Status::OK();
}

}  // namespace internal
}  // namespace recflow::image
