// Crops (row copies of a window) and flips (pixel or row order reversed).
#include "recflow/ops/image/geometry.h"

#include <cstring>
#include <string>

namespace recflow::ops {

using image::BytesPerSample;
using image::Image;

std::string_view FlipAxisName(FlipAxis axis) { return axis == FlipAxis::kHorizontal ? "horizontal" : "vertical"; }

std::optional<FlipAxis> ParseFlipAxis(std::string_view name) {
  for (FlipAxis axis : {FlipAxis::kHorizontal, FlipAxis::kVertical}) {
    if (FlipAxisName(axis) == name) return axis;
  }
  return std::nullopt;
}

namespace {

Status CheckFits(const Image& image, int height, int width) {
  RETURN_NOT_OK(image::CheckImageShape(height, width, image.channels()));
  if (height > image.height() || width > image.width()) {
    return Status::DataError("image of " + std::to_string(image.width()) + "x" + std::to_string(image.height()) +
                             " is smaller than the " + std::to_string(width) + "x" + std::to_string(height) +
                             " crop");
  }
  return Status::OK();
}

}  // namespace

Result<Image> Crop(const Image& image, int top, int left, int height, int width,
                   const image::ImageAllocator& allocate) {
  RETURN_NOT_OK(CheckFits(image, height, width));
  if (top < 0 || left < 0 || top > image.height() - height || left > image.width() - width) {
    return Status::DataError("crop window at (" + std::to_string(top) + ", " + std::to_string(left) +
                             ") leaves the image");
  }
  if (height == image.height() && width == image.width()) return image;
  ASSIGN_OR_RETURN(Image out, image::AllocateImage(allocate, height, width, image.channels(), image.pixel_type()));
  const int64_t pixel = int64_t{image.channels()} * BytesPerSample(image.pixel_type());
  for (int y = 0; y < height; ++y) {
    std::memcpy(out.mutable_data() + y * out.row_bytes(), image.data() + (top + y) * image.row_bytes() + left * pixel,
                static_cast<size_t>(out.row_bytes()));
  }
  return out;
}

Result<Image> CenterCrop(const Image& image, int height, int width, const image::ImageAllocator& allocate) {
  RETURN_NOT_OK(CheckFits(image, height, width));
  return Crop(image, (image.height() - height) / 2, (image.width() - width) / 2, height, width, allocate);
}

Result<Image> RandomCrop(const Image& image, int height, int width, uint64_t bits,
                         const image::ImageAllocator& allocate) {
  RETURN_NOT_OK(CheckFits(image, height, width));
  const auto top = static_cast<int>((bits & 0xFFFFFFFFu) % uint64_t(image.height() - height + 1));
  const auto left = static_cast<int>((bits >> 32) % uint64_t(image.width() - width + 1));
  return Crop(image, top, left, height, width, allocate);
}

Result<Image> Flip(const Image& image, FlipAxis axis, const image::ImageAllocator& allocate) {
  ASSIGN_OR_RETURN(Image out, image::AllocateImage(allocate, image.height(), image.width(), image.channels(),
                                                   image.pixel_type()));
  const int64_t row = image.row_bytes();
  const int64_t pixel = int64_t{image.channels()} * BytesPerSample(image.pixel_type());
  for (int y = 0; y < image.height(); ++y) {
    if (axis == FlipAxis::kVertical) {
      std::memcpy(out.mutable_data() + y * row, image.data() + (image.height() - 1 - y) * row, size_t(row));
      continue;
    }
    const uint8_t* src = image.data() + y * row;
    uint8_t* dst = out.mutable_data() + y * row;
    for (int x = 0; x < image.width(); ++x) {
      std::memcpy(dst + x * pixel, src + (image.width() - 1 - x) * pixel, size_t(pixel));
    }
  }
  return out;
}

Result<Image> RandomFlip(const Image& image, FlipAxis axis, uint64_t bits, const image::ImageAllocator& allocate) {
  if ((bits & 1) == 0) return image;
  return Flip(image, axis, allocate);
}

}  // namespace recflow::ops
