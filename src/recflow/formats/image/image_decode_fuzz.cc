// libFuzzer target: decode arbitrary bytes as an image with two option sets, re-encoding successes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "recflow/formats/image/image_codec.h"

namespace {

using recflow::image::Image;
using recflow::image::PixelType;

// Decodes again into memory filled with 0xA5 (as a column's reused pixel room would hold stale
// bytes): a decoder must write every sample, so the result equals the decode into zeroed memory.
void CheckEverySampleWritten(std::span<const uint8_t> bytes, const recflow::image::DecodeOptions& options,
                             const Image& zeroed) {
  std::vector<uint8_t> room;
  const recflow::image::ImageAllocator dirty = [&room](int height, int width, int channels,
                                                       PixelType type) -> recflow::Result<Image> {
    room.assign(static_cast<size_t>(int64_t{height} * width * channels * recflow::image::BytesPerSample(type)), 0xA5);
    const auto pixels = recflow::Buffer::Wrap(room.data(), static_cast<int64_t>(room.size()));
    return Image::Wrap(height, width, channels, type, pixels);
  };
  auto image = recflow::image::DecodeImage(bytes, options, dirty);
  if (!image.ok() || !image->Equals(zeroed)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using recflow::image::DecodeOptions;
  const std::span<const uint8_t> bytes(data, size);
  DecodeOptions plain;
  plain.max_pixels = 1 << 22;
  DecodeOptions converted = plain;
  converted.channels = 4;
  converted.keep_16bit = true;
  converted.min_height = 8;
  converted.min_width = 8;
  converted.allow_corrupt_jpeg = true;
  for (const DecodeOptions& options : {plain, converted}) {
    auto image = recflow::image::DecodeImage(bytes, options);
    if (!image.ok()) continue;
    CheckEverySampleWritten(bytes, options, *image);
    if (image->size_bytes() <= (1 << 16)) (void)recflow::image::EncodePng(*image, 1).ok();
  }
  return 0;
}
