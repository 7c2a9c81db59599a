// Image allocation, wrapping and channel-layout conversion.
#include "recflow/formats/image/image.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace recflow::image {

std::string_view PixelTypeName(PixelType type) {
  switch (type) {
    case PixelType::kUInt8: return "uint8";
    case PixelType::kUInt16: return "uint16";
    case PixelType::kFloat32: return "float32";
  }
  return "unknown";
}

std::optional<PixelType> ParsePixelType(std::string_view name) {
  for (PixelType type : {PixelType::kUInt8, PixelType::kUInt16, PixelType::kFloat32}) {
    if (PixelTypeName(type) == name) return type;
  }
  return std::nullopt;
}

int BytesPerSample(PixelType type) {
  switch (type) {
    case PixelType::kUInt8: return 1;
    case PixelType::kUInt16: return 2;
    case PixelType::kFloat32: return 4;
  }
  return 1;
}

Status CheckImageShape(int64_t height, int64_t width, int64_t channels) {
  if (height < 1 || width < 1 || height > Image::kMaxDimension || width > Image::kMaxDimension) {
    return Status::InvalidArgument("image size " + std::to_string(width) + "x" + std::to_string(height) +
                                   " outside 1.." + std::to_string(Image::kMaxDimension));
  }
  if (channels < 1 || channels > 4) {
    return Status::InvalidArgument("image channels " + std::to_string(channels) + " outside 1..4");
  }
  return Status::OK();
}

Result<Image> Image::Allocate(int height, int width, int channels, PixelType type) {
  RETURN_NOT_OK(CheckImageShape(height, width, channels));
  ASSIGN_OR_RETURN(auto pixels,
                   Buffer::Allocate(int64_t{height} * width * channels * BytesPerSample(type)));
  return Image(height, width, channels, type, std::move(pixels));
}

Result<Image> AllocateImage(const ImageAllocator& allocate, int height, int width, int channels, PixelType type) {
  if (allocate) return allocate(height, width, channels, type);
  return Image::Allocate(height, width, channels, type);
}

Result<Image> Image::Wrap(int height, int width, int channels, PixelType type, std::shared_ptr<Buffer> pixels) {
  RETURN_NOT_OK(CheckImageShape(height, width, channels));
  const int64_t expected = int64_t{height} * width * channels * BytesPerSample(type);
  if (pixels == nullptr || pixels->size() != expected) {
    return Status::DataError("image pixels hold " + std::to_string(pixels ? pixels->size() : 0) +
                             " bytes, but a " + std::to_string(width) + "x" + std::to_string(height) + "x" +
                             std::to_string(channels) + " " + std::string(PixelTypeName(type)) + " image needs " +
                             std::to_string(expected));
  }
  return Image(height, width, channels, type, std::move(pixels));
}

bool Image::Equals(const Image& other) const {
  return height_ == other.height_ && width_ == other.width_ && channels_ == other.channels_ &&
         pixel_type_ == other.pixel_type_ &&
         (size_bytes() == 0 || std::memcmp(data(), other.data(), static_cast<size_t>(size_bytes())) == 0);
}

namespace {

template <typename T>
constexpr T OpaqueAlpha() {
  if constexpr (std::is_floating_point_v<T>) {
    return T{1};
  } else {
    return std::numeric_limits<T>::max();
  }
}

// ITU-R 601-2 luma; uint8 uses Pillow's 16-bit fixed point with rounding.
template <typename T>
T Luma(T r, T g, T b) {
  if constexpr (std::is_same_v<T, uint8_t>) {
    return static_cast<uint8_t>((r * 19595u + g * 38470u + b * 7471u + 0x8000u) >> 16);
  } else if constexpr (std::is_same_v<T, uint16_t>) {
    return static_cast<uint16_t>((uint64_t{r} * 19595u + uint64_t{g} * 38470u + uint64_t{b} * 7471u + 0x8000u) >> 16);
  } else {
    return static_cast<T>(r * 0.299 + g * 0.587 + b * 0.114);
  }
}

template <typename T>
void ConvertPixels(const T* in, int in_channels, T* out, int out_channels, int64_t pixels) {
  const bool in_color = in_channels >= 3;
  const bool in_alpha = in_channels == 2 || in_channels == 4;
  const bool out_color = out_channels >= 3;
  const bool out_alpha = out_channels == 2 || out_channels == 4;
  for (int64_t i = 0; i < pixels; ++i, in += in_channels, out += out_channels) {
    if (out_color) {
      out[0] = in[0];
      out[1] = in_color ? in[1] : in[0];
      out[2] = in_color ? in[2] : in[0];
    } else {
      out[0] = in_color ? Luma(in[0], in[1], in[2]) : in[0];
    }
    if (out_alpha) out[out_channels - 1] = in_alpha ? in[in_channels - 1] : OpaqueAlpha<T>();
  }
}

}  // namespace

Result<Image> ConvertChannels(const Image& image, int channels, const ImageAllocator& allocate) {
  if (channels < 1 || channels > 4) {
    return Status::InvalidArgument("cannot convert to " + std::to_string(channels) + " channels (1..4)");
  }
  if (channels == image.channels()) return image;
  ASSIGN_OR_RETURN(Image out, AllocateImage(allocate, image.height(), image.width(), channels, image.pixel_type()));
  const int64_t pixels = int64_t{image.height()} * image.width();
  switch (image.pixel_type()) {
    case PixelType::kUInt8:
      ConvertPixels(image.samples<uint8_t>(), image.channels(), out.mutable_samples<uint8_t>(), channels, pixels);
      break;
    case PixelType::kUInt16:
      ConvertPixels(image.samples<uint16_t>(), image.channels(), out.mutable_samples<uint16_t>(), channels, pixels);
      break;
    case PixelType::kFloat32:
      ConvertPixels(image.samples<float>(), image.channels(), out.mutable_samples<float>(), channels, pixels);
      break;
  }
  return out;
}

}  // namespace recflow::image
