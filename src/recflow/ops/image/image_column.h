// The decoded-image column: struct<height, width, channels: int32, pixels: binary> + dtype metadata.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "recflow/columnar/array.h"
#include "recflow/columnar/array_data.h"
#include "recflow/columnar/builder.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/image/image.h"

namespace recflow::ops {

/// Field metadata key giving the sample type of an image column: "uint8", "uint16" or
/// "float32" (image::PixelTypeName). It is set on the struct's `pixels` field, so the column
/// type itself carries it, and by ImageField() on the column's own field too.
inline constexpr std::string_view kImageDtypeKey = "recflow.image.dtype";

/// The image column type: struct<height: int32 not null, width: int32 not null, channels:
/// int32 not null, pixels: binary not null> (a null image is a null struct row); `pixels`
/// holds the interleaved HWC samples, little-endian, and carries kImageDtypeKey = `type`.
DataTypePtr ImageType(image::PixelType type);

/// A nullable field `name` of ImageType(type), with kImageDtypeKey = `type` in its metadata.
FieldPtr ImageField(std::string name, image::PixelType type);

/// The sample type declared by an image column type; a TypeError when `type` is not one.
Result<image::PixelType> ImagePixelType(const DataType& type);

/// Reads the images of an image column (zero-copy where the samples are aligned).
class ImageColumnReader {
 public:
  /// Checks the column's type (see ImageType) and wraps it.
  static Result<ImageColumnReader> Make(std::shared_ptr<ArrayData> column);

  /// Number of rows.
  int64_t length() const { return column_.length(); }
  /// Whether row i is null.
  bool IsNull(int64_t i) const { return column_.IsNull(i); }
  /// The sample type of every image of the column.
  image::PixelType pixel_type() const { return pixel_type_; }
  /// Row i (not null) as an Image sharing the column's memory; a DataError when its shape and
  /// pixel bytes disagree.
  Result<image::Image> Get(int64_t i) const;

 private:
  ImageColumnReader(std::shared_ptr<ArrayData> column, image::PixelType type);

  StructArray column_;
  image::PixelType pixel_type_;
  Int32Array heights_;
  Int32Array widths_;
  Int32Array channels_;
  BinaryArray pixels_;
};

/// Builds an image column of one sample type.
class ImageColumnBuilder {
 public:
  /// A builder of ImageType(type).
  explicit ImageColumnBuilder(image::PixelType type);

  /// Expects `rows` more rows: their shape fields now, and room for `rows` images the size of
  /// the first one allocated in place.
  Status Reserve(int64_t rows);
  /// An image (an image::ImageAllocator) whose pixels are the free room at the end of the
  /// column's pixel buffer, uninitialised: written there and then appended with Append(), it
  /// is never copied. It is valid only until the builder's next call, and its memory is not
  /// owned by it: neither keep it nor share it. An image of another sample type than the
  /// column's, or a second one before Append() or AppendNull(), gets its own memory.
  Result<image::Image> AllocateInPlace(int height, int width, int channels, image::PixelType type);
  /// Appends an image (without a copy when it is the last AllocateInPlace() image); a
  /// TypeError when its sample type is not the builder's, an error when the column's pixel
  /// bytes would pass 2 GiB (binary offsets are int32).
  Status Append(const image::Image& image);
  /// Appends a null row.
  Status AppendNull();
  /// The column so far; the builder is empty afterwards.
  Result<std::shared_ptr<ArrayData>> Finish();

 private:
  BinaryBuilder& pixels();

  image::PixelType type_;
  StructBuilder builder_;
  int64_t reserve_rows_ = 0;            ///< rows whose pixel room the first in-place image sizes
  const uint8_t* in_place_ = nullptr;   ///< the pixels of the last AllocateInPlace() image
};

}  // namespace recflow::ops
