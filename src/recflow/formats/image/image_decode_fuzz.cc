// libFuzzer target: decode arbitrary bytes as an image with two option sets, re-encoding successes.
#include <cstddef>
#include <cstdint>

#include "recflow/formats/image/image_codec.h"

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
    if (image.ok() && image->size_bytes() <= (1 << 16)) (void)recflow::image::EncodePng(*image, 1).ok();
  }
  return 0;
}
