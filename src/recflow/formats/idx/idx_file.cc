// IdxFile: header validation against the actual size, and zero-copy columns.
#include "recflow/formats/idx/idx_file.h"

#include <cstring>
#include <limits>

#include "recflow/core/compression.h"
#include "recflow/core/io.h"

namespace recflow::idx {
namespace {

uint32_t LoadBigEndian32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

Status HeaderError(const std::string& name, int64_t offset, const std::string& msg) {
  return Status::DataError("IDX header: " + msg).WithFile(name).WithOffset(offset);
}

}  // namespace

IdxFile::IdxFile(std::string name, std::shared_ptr<Buffer> data, std::vector<int64_t> dims, int64_t header_size,
                 int64_t item_size, FieldPtr field)
    : name_(std::move(name)),
      data_(std::move(data)),
      dims_(std::move(dims)),
      header_size_(header_size),
      item_size_(item_size),
      field_(std::move(field)) {}

Result<std::shared_ptr<const IdxFile>> IdxFile::Open(const std::string& path, FileSystem& fs) {
  ASSIGN_OR_RETURN(auto data, fs.ReadWholeFile(path));
  return FromBuffer(std::move(data), path);
}

Result<std::shared_ptr<const IdxFile>> IdxFile::FromBuffer(std::shared_ptr<Buffer> data, std::string name) {
  if (LooksLikeGzip(data->span())) {
    auto inflated = DecompressBuffer(Compression::kGzip, data->span());
    if (!inflated.ok()) return inflated.status().WithFile(name);
    data = std::move(inflated).ValueUnsafe();
  }
  const uint8_t* p = data->data();
  const int64_t size = data->size();
  if (size < 4) return HeaderError(name, 0, "file has " + std::to_string(size) + " bytes, needs at least 4");
  if (p[0] != 0 || p[1] != 0) return HeaderError(name, 0, "bad magic (the first two bytes must be zero)");
  if (p[2] != kTypeUInt8) {
    return HeaderError(name, 2, "unsupported element type code " + std::to_string(p[2]) + " (only 0x08, uint8)");
  }
  const int ndims = p[3];
  if (ndims < 1 || ndims > kMaxDims) {
    return HeaderError(name, 3, "dimension count " + std::to_string(ndims) + " outside 1.." + std::to_string(kMaxDims));
  }
  const int64_t header_size = 4 + 4 * int64_t{ndims};
  if (size < header_size) {
    return HeaderError(name, size, "truncated: " + std::to_string(ndims) + " dimensions need a " +
                                       std::to_string(header_size) + "-byte header");
  }
  std::vector<int64_t> dims(static_cast<size_t>(ndims));
  int64_t item_size = 1;
  for (int i = 0; i < ndims; ++i) {
    dims[static_cast<size_t>(i)] = LoadBigEndian32(p + 4 + 4 * i);
    const int64_t d = dims[static_cast<size_t>(i)];
    if (i == 0) continue;
    if (d == 0) return HeaderError(name, 4 + 4 * i, "dimension " + std::to_string(i) + " is zero");
    // The payload must fit the file, so the product can stop before it could overflow.
    if (d > size / item_size) {
      return HeaderError(name, 4 + 4 * i, "item size exceeds the file size of " + std::to_string(size) + " bytes");
    }
    item_size *= d;
  }
  const int64_t payload = size - header_size;
  if (payload % item_size != 0 || payload / item_size != dims[0]) {
    return HeaderError(name, 4, "dimensions promise " + std::to_string(dims[0]) + " items of " +
                                    std::to_string(item_size) + " bytes but " + std::to_string(payload) +
                                    " data bytes follow the header");
  }
  FieldPtr field;
  if (ndims == 1) {
    field = Field::Make("label", int64(), /*nullable=*/false);
  } else {
    std::string shape;
    for (int i = 1; i < ndims; ++i) shape += (i > 1 ? "," : "") + std::to_string(dims[static_cast<size_t>(i)]);
    auto metadata = std::make_shared<KeyValueMetadata>();
    metadata->Set(std::string(kShapeMetadataKey), shape);
    field = Field::Make("image", binary(), /*nullable=*/false, std::move(metadata));
  }
  return std::make_shared<const IdxFile>(std::move(name), std::move(data), std::move(dims), header_size, item_size,
                                         std::move(field));
}

Result<std::shared_ptr<ArrayData>> IdxFile::Column(int64_t offset, int64_t length) const {
  if (offset < 0 || length < 0 || offset > num_items() || length > num_items() - offset) {
    return Status::InvalidArgument("IDX items [" + std::to_string(offset) + ", +" + std::to_string(length) +
                                   ") out of range of " + std::to_string(num_items()))
        .WithFile(name_);
  }
  return dims_.size() == 1 ? LabelColumn(offset, length) : ImageColumn(offset, length);
}

Result<std::shared_ptr<ArrayData>> IdxFile::ImageColumn(int64_t offset, int64_t length) const {
  if (length > std::numeric_limits<int32_t>::max() / item_size_) {
    return Status::InvalidArgument("IDX batch of " + std::to_string(length) + " items of " +
                                   std::to_string(item_size_) + " bytes exceeds 2 GiB")
        .WithFile(name_)
        .WithRecord(offset);
  }
  BufferBuilder offsets;
  RETURN_NOT_OK(offsets.Reserve((length + 1) * static_cast<int64_t>(sizeof(int32_t))));
  for (int64_t i = 0; i <= length; ++i) offsets.UnsafeAppendValue(static_cast<int32_t>(i * item_size_));
  ASSIGN_OR_RETURN(auto values, Buffer::Slice(data_, header_size_ + offset * item_size_, length * item_size_));
  return ArrayData::Make(field_->type(), length, {nullptr, offsets.Finish(), std::move(values)}, /*null_count=*/0);
}

Result<std::shared_ptr<ArrayData>> IdxFile::LabelColumn(int64_t offset, int64_t length) const {
  BufferBuilder values;
  RETURN_NOT_OK(values.Reserve(length * static_cast<int64_t>(sizeof(int64_t))));
  const uint8_t* labels = data_->data() + header_size_ + offset;
  for (int64_t i = 0; i < length; ++i) values.UnsafeAppendValue(static_cast<int64_t>(labels[i]));
  return ArrayData::Make(field_->type(), length, {nullptr, values.Finish()}, /*null_count=*/0);
}

}  // namespace recflow::idx
