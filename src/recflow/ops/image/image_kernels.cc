// Image kernels: a per-row loop over a column that keeps nulls and collects row errors.
#include "recflow/ops/image/image_kernels.h"

#include <filesystem>
#include <string>
#include <utility>

#include "recflow/columnar/array.h"
#include "recflow/columnar/builder.h"
#include "recflow/columnar/element_access.h"
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

// The bytes of a binary value already written in place at the end of a BinaryBuilder's data.
struct WrittenBytes {
  int64_t size;
};

Status AppendOutput(ImageColumnBuilder& builder, const Image& image) { return builder.Append(image); }
Status AppendOutput(BinaryBuilder& builder, const std::shared_ptr<Buffer>& bytes) {
  return builder.Append(bytes->data(), bytes->size());
}
Status AppendOutput(BinaryBuilder& builder, WrittenBytes bytes) { return builder.AppendWritten(bytes.size); }

// Images written straight into `builder`'s pixel buffer.
image::ImageAllocator InPlace(ImageColumnBuilder& builder) {
  return [&builder](int height, int width, int channels, PixelType type) {
    return builder.AllocateInPlace(height, width, channels, type);
  };
}

// The one loop of every kernel: row(i) → Result<output> for each non-null row i of `input`.
// A failed row is recorded in `errors` and gives a null row (row() must then have appended
// nothing); a null row stays null. An append that fails (a column over 2 GiB) fails the call.
template <typename Builder, typename RowFn>
Result<std::shared_ptr<ArrayData>> MapRows(const ArrayData& input, Builder& builder, RowErrors& errors, RowFn&& row) {
  RETURN_NOT_OK(builder.Reserve(input.length));
  for (int64_t i = 0; i < input.length; ++i) {
    if (!IsValidAt(input, i)) {
      RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    auto out = row(i);
    if (!out.ok()) {
      errors.Add(i, out.status());
      RETURN_NOT_OK(builder.AppendNull());
      continue;
    }
    RETURN_NOT_OK(AppendOutput(builder, *out));
  }
  return builder.Finish();
}

// fn(image, row, allocate) → Result<Image> for every image; fn makes its output with
// `allocate`, so that it is written in place into the output column.
template <typename Fn>
Result<std::shared_ptr<ArrayData>> MapImages(const std::shared_ptr<ArrayData>& images, const char* kernel,
                                             PixelType out_type, RowErrors& errors, Fn&& fn) {
  RETURN_NOT_OK(CheckColumn(images, kernel));
  ASSIGN_OR_RETURN(auto reader, ImageColumnReader::Make(images));
  ImageColumnBuilder builder(out_type);
  const image::ImageAllocator allocate = InPlace(builder);
  return MapRows(*images, builder, errors, [&](int64_t i) -> Result<Image> {
    ASSIGN_OR_RETURN(Image image, reader.Get(i));
    return fn(image, i, allocate);
  });
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
Result<Image> WidenTo16(const Image& image, const image::ImageAllocator& allocate) {
  if (image.pixel_type() == PixelType::kUInt16) return image;
  ASSIGN_OR_RETURN(Image out, image::AllocateImage(allocate, image.height(), image.width(), image.channels(),
                                                   PixelType::kUInt16));
  const int64_t n = image.size_bytes();
  for (int64_t i = 0; i < n; ++i) out.mutable_samples<uint16_t>()[i] = uint16_t(image.data()[i] * 257);
  return out;
}

}  // namespace

Result<std::shared_ptr<ArrayData>> LoadFiles(const std::shared_ptr<ArrayData>& paths, const std::string& base_dir,
                                             FileSystem& file_system, RowErrors& errors) {
  RETURN_NOT_OK(CheckBinary(paths, "LoadFiles"));
  BinaryArray names(paths);
  BinaryBuilder builder;
  return MapRows(*paths, builder, errors, [&](int64_t i) -> Result<WrittenBytes> {
    std::filesystem::path path(names.GetView(i));
    if (!base_dir.empty() && path.is_relative()) path = std::filesystem::path(base_dir) / path;
    // Read straight into the column: no buffer per file, no copy; a file that cannot fit in
    // the column's 2 GiB is refused before it is read.
    auto size =
        file_system.AppendWholeFile(path.string(), builder.value_data(), kMaxInt32Offset - builder.value_data_length());
    if (!size.ok()) return size.status().WithFile(path.string());
    return WrittenBytes{*size};
  });
}

Result<std::shared_ptr<ArrayData>> DecodeImages(const std::shared_ptr<ArrayData>& encoded,
                                                const image::DecodeOptions& options, RowErrors& errors) {
  RETURN_NOT_OK(CheckBinary(encoded, "DecodeImages"));
  RETURN_NOT_OK(options.Validate());
  BinaryArray bytes(encoded);
  ImageColumnBuilder builder(options.keep_16bit ? PixelType::kUInt16 : PixelType::kUInt8);
  const image::ImageAllocator allocate = InPlace(builder);
  return MapRows(*encoded, builder, errors, [&](int64_t i) -> Result<Image> {
    const std::string_view view = bytes.GetView(i);
    ASSIGN_OR_RETURN(Image image,
                     image::DecodeImage({reinterpret_cast<const uint8_t*>(view.data()), view.size()}, options, allocate));
    if (options.keep_16bit) return WidenTo16(image, allocate);
    return image;
  });
}

Result<std::shared_ptr<ArrayData>> ResizeImages(const std::shared_ptr<ArrayData>& images, int height, int width,
                                                ResizeMethod method, RowErrors& errors) {
  RETURN_NOT_OK(CheckSize(height, width, "ResizeImages"));
  return MapImagesSameType(images, "ResizeImages", errors, [&](const Image& image, int64_t, const auto& allocate) {
    return Resize(image, height, width, method, allocate);
  });
}

Result<std::shared_ptr<ArrayData>> CenterCropImages(const std::shared_ptr<ArrayData>& images, int height, int width,
                                                    RowErrors& errors) {
  RETURN_NOT_OK(CheckSize(height, width, "CenterCropImages"));
  return MapImagesSameType(images, "CenterCropImages", errors, [&](const Image& image, int64_t, const auto& allocate) {
    return CenterCrop(image, height, width, allocate);
  });
}

Result<std::shared_ptr<ArrayData>> RandomCropImages(const std::shared_ptr<ArrayData>& images, int height, int width,
                                                    uint64_t seed, const RowKeyFn& row_key, RowErrors& errors) {
  RETURN_NOT_OK(CheckSize(height, width, "RandomCropImages"));
  return MapImagesSameType(images, "RandomCropImages", errors, [&](const Image& image, int64_t i, const auto& allocate) {
    return RandomCrop(image, height, width, ElementRandom(seed, row_key(i), kCropStream), allocate);
  });
}

Result<std::shared_ptr<ArrayData>> RandomFlipImages(const std::shared_ptr<ArrayData>& images, FlipAxis axis,
                                                    uint64_t seed, const RowKeyFn& row_key, RowErrors& errors) {
  return MapImagesSameType(images, "RandomFlipImages", errors, [&](const Image& image, int64_t i, const auto& allocate) {
    return RandomFlip(image, axis, ElementRandom(seed, row_key(i), kFlipStream), allocate);
  });
}

Result<std::shared_ptr<ArrayData>> NormalizeImages(const std::shared_ptr<ArrayData>& images,
                                                   std::span<const float> mean, std::span<const float> std,
                                                   float scale, RowErrors& errors) {
  RETURN_NOT_OK(CheckNormalizeParams(mean, std, /*channels=*/0));
  return MapImages(images, "NormalizeImages", PixelType::kFloat32, errors,
                   [&](const Image& image, int64_t, const auto& allocate) {
                     return Normalize(image, mean, std, scale, allocate);
                   });
}

Result<std::shared_ptr<ArrayData>> ConvertImageChannels(const std::shared_ptr<ArrayData>& images, int channels,
                                                        RowErrors& errors) {
  if (channels < 1 || channels > 4) {
    return Status::InvalidArgument("ConvertImageChannels: channels " + std::to_string(channels) + " outside 1..4");
  }
  return MapImagesSameType(images, "ConvertImageChannels", errors,
                           [&](const Image& image, int64_t, const auto& allocate) {
                             return image::ConvertChannels(image, channels, allocate);
                           });
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
  return MapRows(*images, builder, errors, [&](int64_t i) -> Result<std::shared_ptr<Buffer>> {
    ASSIGN_OR_RETURN(Image image, reader.Get(i));
    return format == image::ImageFormat::kJpeg ? image::EncodeJpeg(image, quality) : image::EncodePng(image, quality);
  });
}

}  // namespace recflow::ops
