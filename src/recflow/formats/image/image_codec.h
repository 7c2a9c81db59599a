// Image codecs: sniff, decode (JPEG via TurboJPEG, PNG via libpng) and encode. See docs/formats/images.md.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "recflow/core/buffer.h"
#include "recflow/core/result.h"
#include "recflow/formats/image/image.h"

namespace recflow::image {

/// A compressed image format, recognised by its magic bytes.
enum class ImageFormat : uint8_t { kUnknown, kJpeg, kPng };

/// "unknown", "jpeg", "png".
std::string_view ImageFormatName(ImageFormat format);
/// JPEG starts FF D8 FF; PNG with its 8-byte signature 89 'PNG' 0D 0A 1A 0A.
ImageFormat Sniff(std::span<const uint8_t> bytes);

/// How DecodeImage() decodes.
struct DecodeOptions {
  /// Output channels: 0 = as stored (JPEG: 1 or 3; PNG: 1, 2, 3 or 4 after palette and tRNS
  /// expansion), 1 gray, 3 RGB, 4 RGBA (see ConvertChannels; a gray JPEG target is the
  /// decoder's own luma).
  int channels = 0;
  /// JPEG DCT-domain downscaling hint: when either is > 0, the JPEG is decoded at the smallest
  /// TurboJPEG scaling factor (≤ 1) whose output is still ≥ min_height × min_width (a value of
  /// 0 does not constrain its dimension). PNG ignores it.
  int min_height = 0;
  int min_width = 0;
  /// 16-bit PNG samples: kept (uint16 output) or reduced to their high byte (uint8 output,
  /// as Pillow does).
  bool keep_16bit = false;
  /// Largest width × height accepted, checked against the stored header before any pixel
  /// memory is allocated (decompression-bomb guard).
  int64_t max_pixels = int64_t{1} << 28;
  /// JPEG: decode despite libjpeg warnings and errors that follow one (a truncated or corrupt
  /// file decodes with the part it could not decode mid-grey, 128). Off by default: any
  /// warning is a DataError.
  bool allow_corrupt_jpeg = false;

  /// The defaults above.
  static DecodeOptions Defaults() { return {}; }
  /// channels ∈ {0, 1, 3, 4}, min sizes ≥ 0, max_pixels ≥ 1.
  Status Validate() const;
};

/// Decodes a JPEG or PNG image into an image made by `allocate` (see ImageAllocator). Every
/// malformed, truncated or unsupported input, and an image over options.max_pixels, is a
/// DataError saying why.
Result<Image> DecodeImage(std::span<const uint8_t> bytes, const DecodeOptions& options,
                          const ImageAllocator& allocate = nullptr);

/// Encodes a uint8 image with 1, 3 or 4 channels (alpha dropped) as a baseline JPEG of
/// `quality` 1..100, 4:2:0 chroma subsampling for colour.
Result<std::shared_ptr<Buffer>> EncodeJpeg(const Image& image, int quality);

/// Encodes a uint8 or uint16 image (any channel count) as PNG with zlib `level` 0..9,
/// optionally Adam7-interlaced.
Result<std::shared_ptr<Buffer>> EncodePng(const Image& image, int level, bool interlaced = false);

}  // namespace recflow::image
