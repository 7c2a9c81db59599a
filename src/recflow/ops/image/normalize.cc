// Normalize: per-channel affine map of samples into float32.
#include "recflow/ops/image/normalize.h"

#include <string>
#include <vector>

namespace recflow::ops {

using image::Image;
using image::PixelType;

namespace {

template <typename T>
void NormalizeSamples(const T* in, float* out, int64_t pixels, int channels, const float* mul, const float* add) {
  for (int64_t p = 0; p < pixels; ++p) {
    for (int c = 0; c < channels; ++c, ++in, ++out) *out = static_cast<float>(*in) * mul[c] + add[c];
  }
}

}  // namespace

Status CheckNormalizeParams(std::span<const float> mean, std::span<const float> std, int channels) {
  for (auto [name, values] : {std::pair{"mean", mean}, std::pair{"std", std}}) {
    const bool per_channel_ok = channels == 0 || static_cast<int>(values.size()) == channels;
    if (values.size() != 1 && (values.empty() || !per_channel_ok)) {
      return Status::InvalidArgument(std::string("normalize ") + name + " has " + std::to_string(values.size()) +
                                     " values; needs 1 or one per channel" +
                                     (channels ? " (" + std::to_string(channels) + ")" : std::string()));
    }
  }
  for (float s : std) {
    if (s == 0.0f) return Status::InvalidArgument("normalize std must not be 0");
  }
  return Status::OK();
}

Result<Image> Normalize(const Image& image, std::span<const float> mean, std::span<const float> std, float scale,
                        const image::ImageAllocator& allocate) {
  const int channels = image.channels();
  RETURN_NOT_OK(CheckNormalizeParams(mean, std, channels));
  // (x·scale − m) / s = x · (scale / s) + (−m / s), folded per channel.
  std::vector<float> mul(static_cast<size_t>(channels)), add(static_cast<size_t>(channels));
  for (int c = 0; c < channels; ++c) {
    const float m = mean.size() == 1 ? mean[0] : mean[size_t(c)];
    const float s = std.size() == 1 ? std[0] : std[size_t(c)];
    mul[size_t(c)] = scale / s;
    add[size_t(c)] = -m / s;
  }
  ASSIGN_OR_RETURN(Image out, image::AllocateImage(allocate, image.height(), image.width(), channels, PixelType::kFloat32));
  const int64_t pixels = int64_t{image.height()} * image.width();
  float* dst = out.mutable_samples<float>();
  switch (image.pixel_type()) {
    case PixelType::kUInt8: NormalizeSamples(image.samples<uint8_t>(), dst, pixels, channels, mul.data(), add.data()); break;
    case PixelType::kUInt16: NormalizeSamples(image.samples<uint16_t>(), dst, pixels, channels, mul.data(), add.data()); break;
    case PixelType::kFloat32: NormalizeSamples(image.samples<float>(), dst, pixels, channels, mul.data(), add.data()); break;
  }
  return out;
}

}  // namespace recflow::ops
