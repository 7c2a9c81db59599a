// Image kernels: a per-row loop over a column that keeps nulls and collects row errors.
#include "recflow/ops/image/image_kernels.h"

#include <filesystem>
#include <string>
#include <utility>

#include "recflow/columnar/array.h"
#include "recflow/columnar/builder.h"
#include "recflow/core/io.h"
#include "recflow/ops/image/element_random.h"
#include "recflow/ops/image/image_column.h"
#include "recflow/ops/image/normalize.h"

namespace recflow::ops {

using image::Image;
using image::PixelType;

namespace {

Status CheckColumn(const std::shared_ptr<ArrayData>& column, const char* kernel) {
  if (column == nullptr) return Status::InvalidArgument(std::string(kernel) + ": no input column");
  return Status::OK();
}

Status CheckBinary(const std::shared_ptr<ArrayData>& column, const char* kernel) {
  RETURN_NOT_OK(CheckColumn(column, kernel));
  if (!column->type->is_binary_like()) {
    return Status::TypeError(std::string(kernel) + " needs a binary or utf8 column, not " + column->type->ToString());
  }
  return Status::OK();
}

// Applies fn(image, row) → Result<Image> to every non-null image; failures become row errors
// and null rows.
template <typename Fn>
Result<std::shared_ptr<ArrayData>> MapImages(const std::shared_ptr<ArrayData>& images, const char* kernel,
                                             PixelType out_type, RowErrors& errors, Fn&& fn) {
  RETURN_NOT_OK(CheckColumn(images, kernel));
  ASSIGN_OR_RETURN(auto reader, ImageColumnReader::Make(images));
  ImageColumnBuilder builder(out_type);
  for (int64_t i = 0; i < reader.length(); ++i) {
    if (reader.IsNull(i)) {
      RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    Result<Image> out = reader.Get(i);
    if (out.ok()) out = fn(*out, i);
    if (!out.ok()) {
      errors.Add(i, out.status());
      RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    RETURN_NOT_OK(builder.Append(*out));
  }
  return builder.Finish();
}

// Same sample type out as in.
template <typename Fn>
Result<std::shared_ptr<ArrayData>> MapImagesSameType(const std::shared_ptr<ArrayData>& images, const char* kernel,
                                                     RowErrors& errors, Fn&& fn) {
  RETURN_NOT_OK(CheckColumn(images, kernel));
  ASSIGN_OR_RETURN(PixelType type, ImagePixelType(*images->type));
  return MapImages(images, kernel, type, errors, std::forward<Fn>(fn));
}

Status CheckSize(int height, int width, const char* kernel) {
  if (height < 1 || width < 1 || height > Image::kMaxDimension || width > Image::kMaxDimension) {
    return Status::InvalidArgument(std::string(kernel) + ": size " + std::to_string(width) + "x" +
                                   std::to_string(height) + " outside 1.." + std::to_string(Image::kMaxDimension));
  }
  return Status::OK();
}

// An 8-bit image widened to 16 bits (× 257: 0 ↦ 0, 255 ↦ 65535).
Result<Image> WidenTo16(const Image& image) {
  if (image.pixel_type() == PixelType::kUInt16) return image;
  ASSIGN_OR_RETURN(Image out, Image::Allocate(image.height(), image.width(), image.channels(), PixelType::kUInt16));
  const int64_t n = image.size_bytes();
  for (int64_t i = 0; i < n; ++i) out.mutable_samples<uint16_t>()[i] = uint16_t(image.data()[i] * 257);
  return out;
}

}  // namespace

Result<std::shared_ptr<ArrayData>> LoadFiles(const std::shared_ptr<ArrayData>& paths, const std::string& base_dir,
                                             RowErrors& errors) {
  RETURN_NOT_OK(CheckBinary(paths, "LoadFiles"));
  BinaryArray names(paths);
  BinaryBuilder builder;
  RETURN_NOT_OK(builder.Reserve(names.length()));
  for (int64_t i = 0; i < names.length(); ++i) {
    if (names.IsNull(i)) {
      RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    std::filesystem::path path(names.GetView(i));
    if (!base_dir.empty() && path.is_relative()) path = std::filesystem::path(base_dir) / path;
    auto bytes = ReadWholeFile(path.string());
    if (!bytes.ok()) {
      errors.Add(i, bytes.status().WithFile(path.string()));
      RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    RETURN_NOT_OK(builder.Append((*bytes)->data(), (*bytes)->size()));
  }
  return builder.Finish();
}

Result<std::shared_ptr<ArrayData>> DecodeImages(const std::shared_ptr<ArrayData>& encoded,
                                                const image::DecodeOptions& options, RowErrors& errors) {
  RETURN_NOT_OK(CheckBinary(encoded, "DecodeImages"));
  RETURN_NOT_OK(options.Validate());
  BinaryArray bytes(encoded);
  ImageColumnBuilder builder(options.keep_16bit ? PixelType::kUInt16 : PixelType::kUInt8);
  for (int64_t i = 0; i < bytes.length(); ++i) {
    if (bytes.IsNull(i)) {
      RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    const std::string_view view = bytes.GetView(i);
    Result<Image> image = image::DecodeImage({reinterpret_cast<const uint8_t*>(view.data()), view.size()}, options);
    if (image.ok() && options.keep_16bit) image = WidenTo16(*image);
    if (!image.ok()) {
      errors.Add(i, image.status());
      RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    RETURN_NOT_OK(builder.Append(*image));
  }
  return builder.Finish();
}

Result<std::shared_ptr<ArrayData>> ResizeImages(const std::shared_ptr<ArrayData>& images, int height, int width,
                                                ResizeMethod method, RowErrors& errors) {
  RETURN_NOT_OK(CheckSize(height, width, "ResizeImages"));
  return MapImagesSameType(images, "ResizeImages", errors,
                           [&](const Image& image, int64_t) { return Resize(image, height, width, method); });
}

Result<std::shared_ptr<ArrayData>> CenterCropImages(const std::shared_ptr<ArrayData>& images, int height, int width,
                                                    RowErrors& errors) {
  RETURN_NOT_OK(CheckSize(height, width, "CenterCropImages"));
  return MapImagesSameType(images, "CenterCropImages", errors,
                           [&](const Image& image, int64_t) { return CenterCrop(image, height, width); });
}

Result<std::shared_ptr<ArrayData>> RandomCropImages(const std::shared_ptr<ArrayData>& images, int height, int width,
                                                    uint64_t seed, const RowKeyFn& row_key, RowErrors& errors) {
  RETURN_NOT_OK(CheckSize(height, width, "RandomCropImages"));
  return MapImagesSameType(images, "RandomCropImages", errors, [&](const Image& image, int64_t i) {
    return RandomCrop(image, height, width, ElementRandom(seed, row_key(i), kCropStream));
  });
}

Result<std::shared_ptr<ArrayData>> RandomFlipImages(const std::shared_ptr<ArrayData>& images, FlipAxis axis,
                                                    uint64_t seed, const RowKeyFn& row_key, RowErrors& errors) {
  return MapImagesSameType(images, "RandomFlipImages", errors, [&](const Image& image, int64_t i) {
    return RandomFlip(image, axis, ElementRandom(seed, row_key(i), kFlipStream));
  });
}

Result<std::shared_ptr<ArrayData>> NormalizeImages(const std::shared_ptr<ArrayData>& images,
                                                   std::span<const float> mean, std::span<const float> std,
                                                   float scale, RowErrors& errors) {
  RETURN_NOT_OK(CheckNormalizeParams(mean, std, /*channels=*/0));
  return MapImages(images, "NormalizeImages", PixelType::kFloat32, errors,
                   [&](const Image& image, int64_t) { return Normalize(image, mean, std, scale); });
}

Result<std::shared_ptr<ArrayData>> ConvertImageChannels(const std::shared_ptr<ArrayData>& images, int channels,
                                                        RowErrors& errors) {
  if (channels < 1 || channels > 4) {
    return Status::InvalidArgument("ConvertImageChannels: channels " + std::to_string(channels) + " outside 1..4");
  }
  return MapImagesSameType(images, "ConvertImageChannels", errors,
                           [&](const Image& image, int64_t) { return image::ConvertChannels(image, channels); });
}

Result<std::shared_ptr<ArrayData>> EncodeImages(const std::shared_ptr<ArrayData>& images, image::ImageFormat format,
                                                int quality, RowErrors& errors) {
  RETURN_NOT_OK(CheckColumn(images, "EncodeImages"));
  if (format == image::ImageFormat::kJpeg && (quality < 1 || quality > 100)) {
    return Status::InvalidArgument("EncodeImages: JPEG quality must be 1..100, not " + std::to_string(quality));
  }
  if (format == image::ImageFormat::kPng && (quality < 0 || quality > 9)) {
    return Status::InvalidArgument("EncodeImages: PNG level must be 0..9, not " + std::to_string(quality));
  }
  if (format == image::ImageFormat::kUnknown) return Status::InvalidArgument("EncodeImages: no output format");
  ASSIGN_OR_RETURN(auto reader, ImageColumnReader::Make(images));
  BinaryBuilder builder;
  RETURN_NOT_OK(builder.Reserve(reader.length()));
  for (int64_t i = 0; i < reader.length(); ++i) {
    if (reader.IsNull(i)) {
      RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    Result<std::shared_ptr<Buffer>> bytes = Status::Internal("unset");
    auto image = reader.Get(i);
    if (!image.ok()) {
      bytes = image.status();
    } else if (format == image::ImageFormat::kJpeg) {
      bytes = image::EncodeJpeg(*image, quality);
    } else {
      bytes = image::EncodePng(*image, quality);
    }
    if (!bytes.ok()) {
      errors.Add(i, bytes.status());
      RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    RETURN_NOT_OK(builder.Append((*bytes)->data(), (*bytes)->size()));
  }
  return builder.Finish();
}

}  // namespace recflow::ops
