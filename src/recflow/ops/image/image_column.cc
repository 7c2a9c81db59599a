// The image column type, its reader (zero-copy Image views) and its builder.
#include "recflow/ops/image/image_column.h"

#include <algorithm>
#include <string>
#include <vector>

namespace recflow::ops {

using image::Image;
using image::PixelType;

namespace {

constexpr const char* kFieldNames[] = {"height", "width", "channels", "pixels"};

std::shared_ptr<const KeyValueMetadata> DtypeMetadata(PixelType type) {
  return std::make_shared<const KeyValueMetadata>(std::vector<std::pair<std::string, std::string>>{
      {std::string(kImageDtypeKey), std::string(image::PixelTypeName(type))}});
}

std::vector<std::unique_ptr<ArrayBuilder>> FieldBuilders() {
  std::vector<std::unique_ptr<ArrayBuilder>> builders;
  for (int i = 0; i < 3; ++i) builders.push_back(std::make_unique<Int32Builder>());
  builders.push_back(std::make_unique<BinaryBuilder>());
  return builders;
}

}  // namespace

DataTypePtr ImageType(PixelType type) {
  return struct_({Field::Make(kFieldNames[0], int32(), false), Field::Make(kFieldNames[1], int32(), false),
                  Field::Make(kFieldNames[2], int32(), false),
                  Field::Make(kFieldNames[3], binary(), false, DtypeMetadata(type))});
}

FieldPtr ImageField(std::string name, PixelType type) {
  return Field::Make(std::move(name), ImageType(type), true, DtypeMetadata(type));
}

Result<PixelType> ImagePixelType(const DataType& type) {
  const auto& fields = type.fields();
  bool shaped = type.id() == TypeId::kStruct && fields.size() == 4;
  for (size_t i = 0; shaped && i < 4; ++i) {
    shaped = fields[i]->name() == kFieldNames[i] && fields[i]->type()->id() == (i < 3 ? TypeId::kInt32 : TypeId::kBinary);
  }
  if (!shaped) {
    return Status::TypeError("not an image column: " + type.ToString() +
                             " (expected struct<height: int32, width: int32, channels: int32, pixels: binary>)");
  }
  const auto& metadata = fields[3]->metadata();
  const auto dtype = metadata ? metadata->Get(kImageDtypeKey) : std::nullopt;
  const auto parsed = dtype ? image::ParsePixelType(*dtype) : std::nullopt;
  if (!parsed) {
    return Status::TypeError("image column pixels lack a valid " + std::string(kImageDtypeKey) +
                             " metadata value (uint8, uint16 or float32)");
  }
  return *parsed;
}

ImageColumnReader::ImageColumnReader(std::shared_ptr<ArrayData> column, PixelType type)
    : column_(column),
      pixel_type_(type),
      heights_(column_.field(0)),
      widths_(column_.field(1)),
      channels_(column_.field(2)),
      pixels_(column_.field(3)) {}

Result<ImageColumnReader> ImageColumnReader::Make(std::shared_ptr<ArrayData> column) {
  if (column == nullptr) return Status::InvalidArgument("image column: no data");
  ASSIGN_OR_RETURN(PixelType type, ImagePixelType(*column->type));
  return ImageColumnReader(std::move(column), type);
}

Result<Image> ImageColumnReader::Get(int64_t i) const {
  const int32_t height = heights_.Value(i), width = widths_.Value(i), channels = channels_.Value(i);
  const int64_t start = pixels_.value_offset(i);
  const int64_t size = pixels_.value_length(i);
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(pixels_.raw_data()) + start;
  const auto& data_buffer = pixels_.data()->buffers[2];
  std::shared_ptr<Buffer> pixels;
  if (reinterpret_cast<uintptr_t>(bytes) % image::BytesPerSample(pixel_type_) == 0) {
    pixels = Buffer::Wrap(bytes, size, data_buffer);
  } else {  // misaligned samples (a foreign column): copy them into an aligned buffer
    ASSIGN_OR_RETURN(pixels, Buffer::CopyOf({bytes, static_cast<size_t>(size)}));
  }
  auto image = Image::Wrap(height, width, channels, pixel_type_, std::move(pixels));
  if (!image.ok()) return Status::DataError("image column: " + image.status().message());
  return image;
}

ImageColumnBuilder::ImageColumnBuilder(PixelType type) : type_(type), builder_(ImageType(type), FieldBuilders()) {}

BinaryBuilder& ImageColumnBuilder::pixels() { return *static_cast<BinaryBuilder*>(builder_.field_builder(3)); }

Status ImageColumnBuilder::Reserve(int64_t rows) {
  RETURN_NOT_OK(builder_.Reserve(rows));
  reserve_rows_ = rows;
  return Status::OK();
}

Result<Image> ImageColumnBuilder::AllocateInPlace(int height, int width, int channels, PixelType type) {
  // The room is the end of the buffer: a second image before Append() would share it.
  if (type != type_ || in_place_ != nullptr) return Image::Allocate(height, width, channels, type);
  RETURN_NOT_OK(image::CheckImageShape(height, width, channels));
  const int64_t size = int64_t{height} * width * channels * image::BytesPerSample(type);
  // The first image sizes the room for all reserved rows (up to kMaxReserveBytes): a batch of
  // equal-sized images then never moves.
  constexpr int64_t kMaxReserveBytes = int64_t{1} << 28;
  const int64_t room = std::max(size, std::min(size * std::max<int64_t>(reserve_rows_, 1), kMaxReserveBytes));
  reserve_rows_ = 0;
  // A column that cannot take the image: it gets its own memory, and Append() says why.
  if (!pixels().ReserveData(room).ok() && !pixels().ReserveData(size).ok()) {
    return Image::Allocate(height, width, channels, type);
  }
  BufferBuilder& data = pixels().value_data();
  uint8_t* at = data.mutable_data() + data.size();
  in_place_ = at;
  return Image::Wrap(height, width, channels, type, Buffer::Wrap(at, size));
}

Status ImageColumnBuilder::Append(const Image& image) {
  if (image.pixel_type() != type_) {
    return Status::TypeError("cannot append a " + std::string(image::PixelTypeName(image.pixel_type())) +
                             " image to a " + std::string(image::PixelTypeName(type_)) + " image column");
  }
  if (image.data() != nullptr && image.data() == in_place_) {
    pixels().value_data().UnsafeAdvance(image.size_bytes());
    RETURN_NOT_OK(pixels().AppendWritten(image.size_bytes()));
  } else {
    RETURN_NOT_OK(pixels().Append(image.data(), image.size_bytes()));
  }
  in_place_ = nullptr;
  RETURN_NOT_OK(static_cast<Int32Builder*>(builder_.field_builder(0))->Append(image.height()));
  RETURN_NOT_OK(static_cast<Int32Builder*>(builder_.field_builder(1))->Append(image.width()));
  RETURN_NOT_OK(static_cast<Int32Builder*>(builder_.field_builder(2))->Append(image.channels()));
  return builder_.Append();
}

Status ImageColumnBuilder::AppendNull() {
  in_place_ = nullptr;
  return builder_.AppendNull();
}

Result<std::shared_ptr<ArrayData>> ImageColumnBuilder::Finish() {
  in_place_ = nullptr;
  return builder_.Finish();
}

}  // namespace recflow::ops
