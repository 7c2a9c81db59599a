// Image: a decoded raster (height × width × channels, interleaved HWC) of uint8, uint16 or float32.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "recflow/core/buffer.h"
#include "recflow/core/result.h"

namespace recflow::image {

/// The type of one sample (one channel of one pixel).
enum class PixelType : uint8_t { kUInt8, kUInt16, kFloat32 };

/// "uint8", "uint16", "float32".
std::string_view PixelTypeName(PixelType type);
/// The PixelType named by PixelTypeName(), or nothing.
std::optional<PixelType> ParsePixelType(std::string_view name);
/// Bytes per sample: 1, 2 or 4.
int BytesPerSample(PixelType type);

/// An image value: its shape, sample type and pixels, interleaved row-major (HWC: sample
/// (y, x, c) is at index (y × width + x) × channels + c). Copies share the pixel buffer, so a
/// copy is cheap; only an image fresh from Allocate() may be written through mutable_data().
class Image {
 public:
  /// Largest height or width accepted anywhere (PNG's own limit is 2^31 - 1; recflow keeps
  /// sizes in int32 and byte counts in int64).
  static constexpr int kMaxDimension = 1 << 20;

  /// An empty 0×0 image.
  Image() = default;
  /// A new zero-filled image with its own 64-byte-aligned buffer. Dimensions must be ≥ 1 and
  /// ≤ kMaxDimension, channels 1..4.
  static Result<Image> Allocate(int height, int width, int channels, PixelType type);
  /// An image over existing pixels (not copied; `pixels` is kept alive). The shape is checked
  /// and pixels->size() must be exactly height × width × channels × BytesPerSample(type).
  static Result<Image> Wrap(int height, int width, int channels, PixelType type, std::shared_ptr<Buffer> pixels);

  /// Rows.
  int height() const { return height_; }
  /// Columns.
  int width() const { return width_; }
  /// Samples per pixel: 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA.
  int channels() const { return channels_; }
  /// The type of every sample.
  PixelType pixel_type() const { return pixel_type_; }
  /// Bytes of one row: width × channels × BytesPerSample.
  int64_t row_bytes() const { return int64_t{width_} * channels_ * BytesPerSample(pixel_type_); }
  /// Bytes of all pixels: height × row_bytes().
  int64_t size_bytes() const { return int64_t{height_} * row_bytes(); }
  /// The pixels (size_bytes() bytes).
  const uint8_t* data() const { return pixels_ ? pixels_->data() : nullptr; }
  /// The pixels as samples of type T (T must match pixel_type()).
  template <typename T>
  const T* samples() const {
    return reinterpret_cast<const T*>(data());
  }
  /// Writable pixels; only for an image made by Allocate() and not yet shared.
  uint8_t* mutable_data() { return const_cast<uint8_t*>(data()); }
  /// Writable samples of type T; same rule as mutable_data().
  template <typename T>
  T* mutable_samples() {
    return reinterpret_cast<T*>(mutable_data());
  }
  /// The buffer holding the pixels.
  const std::shared_ptr<Buffer>& buffer() const { return pixels_; }
  /// Same shape, sample type and pixel bytes.
  bool Equals(const Image& other) const;

 private:
  Image(int height, int width, int channels, PixelType type, std::shared_ptr<Buffer> pixels)
      : height_(height), width_(width), channels_(channels), pixel_type_(type), pixels_(std::move(pixels)) {}

  int height_ = 0;
  int width_ = 0;
  int channels_ = 0;
  PixelType pixel_type_ = PixelType::kUInt8;
  std::shared_ptr<Buffer> pixels_;
};

/// Makes the image that a decoder or a resize writes its output into: Image::Allocate() when
/// none is given. An image column builder hands out room in its own pixel buffer
/// (ops::ImageColumnBuilder::AllocateInPlace), so the output is written once, in place. The
/// pixels need not be zeroed: the writer sets every sample.
using ImageAllocator = std::function<Result<Image>(int height, int width, int channels, PixelType type)>;

/// `allocate`(height, width, channels, type), or Image::Allocate() when `allocate` is empty.
Result<Image> AllocateImage(const ImageAllocator& allocate, int height, int width, int channels, PixelType type);

/// Checks a shape: height and width in 1..Image::kMaxDimension, channels in 1..4.
Status CheckImageShape(int64_t height, int64_t width, int64_t channels);

/// Converts between channel layouts (1 gray, 2 gray+alpha, 3 RGB, 4 RGBA), as Pillow's
/// convert() does: gray from colour is ITU-R 601-2 luma, L = R × 299/1000 + G × 587/1000 +
/// B × 114/1000 (uint8: Pillow's fixed-point rounding exactly); gray to colour replicates;
/// alpha is dropped when the target has none and is opaque (the type's maximum, 1.0 for
/// float32) when the source has none. Returns `image` itself when the layout already matches.
/// The output is made by `allocate` (see ImageAllocator).
Result<Image> ConvertChannels(const Image& image, int channels, const ImageAllocator& allocate = nullptr);

}  // namespace recflow::image
