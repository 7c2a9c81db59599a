// BinaryBuilder: int32 offsets + data bytes, refusing to grow past INT32_MAX data bytes.
#include "recflow/columnar/builder.h"

#include <algorithm>
#include <string>

#include "recflow/columnar/builder_internal.h"

namespace recflow {

BinaryBuilder::BinaryBuilder(DataTypePtr type) : ArrayBuilder(std::move(type)) {}

Status BinaryBuilder::Append(const uint8_t* data, int64_t n) {
  if (n < 0 || n > kMaxInt32Offset - data_.size()) {
    return internal::OffsetOverflow(type_->ToString(), "data bytes");
  }
  RETURN_NOT_OK(data_.Reserve(n));
  RETURN_NOT_OK(offsets_.Reserve(sizeof(int32_t)));
  if (has_validity_) RETURN_NOT_OK(validity_.Reserve(1));
  offsets_.UnsafeAppendValue(static_cast<int32_t>(data_.size()));
  if (n > 0) data_.UnsafeAppend(data, n);
  UnsafeCommitValid();
  return Status::OK();
}

Status BinaryBuilder::AppendWritten(int64_t n) {
  if (n < 0 || n > data_.size()) {
    return Status::InvalidArgument("AppendWritten: " + std::to_string(n) + " bytes were not written");
  }
  Status room = data_.size() > kMaxInt32Offset ? internal::OffsetOverflow(type_->ToString(), "data bytes")
                                               : offsets_.Reserve(sizeof(int32_t));
  if (room.ok() && has_validity_) room = validity_.Reserve(1);
  if (!room.ok()) {
    data_.Truncate(data_.size() - n);
    return room;
  }
  offsets_.UnsafeAppendValue(static_cast<int32_t>(data_.size() - n));
  UnsafeCommitValid();
  return Status::OK();
}

Status BinaryBuilder::AppendNulls(int64_t n) {
  RETURN_NOT_OK(Reserve(n));
  const auto end = static_cast<int32_t>(data_.size());
  for (int64_t i = 0; i < n; ++i) offsets_.UnsafeAppendValue(end);
  return CommitAppend(n, false);
}

Status BinaryBuilder::Reserve(int64_t additional) {
  RETURN_NOT_OK(internal::CheckElementCount(additional));
  RETURN_NOT_OK(offsets_.Reserve(additional * static_cast<int64_t>(sizeof(int32_t))));
  return ReserveValidity(additional);
}

Status BinaryBuilder::ReserveData(int64_t bytes) {
  if (bytes < 0 || bytes > kMaxInt32Offset - data_.size()) {
    return internal::OffsetOverflow(type_->ToString(), "data bytes");
  }
  return data_.Reserve(bytes);
}

void BinaryBuilder::Truncate(int64_t length) {
  length = std::clamp<int64_t>(length, 0, length_);
  if (length < length_) data_.Truncate(reinterpret_cast<const int32_t*>(offsets_.data())[length]);
  offsets_.Truncate(length * static_cast<int64_t>(sizeof(int32_t)));
  TruncateValidity(length);
}

Result<std::shared_ptr<ArrayData>> BinaryBuilder::Finish() {
  RETURN_NOT_OK(offsets_.AppendValue(static_cast<int32_t>(data_.size())));
  const int64_t length = length_;
  const int64_t null_count = null_count_;
  auto validity = FinishValidity();
  return ArrayData::Make(type_, length, {std::move(validity), offsets_.Finish(), data_.Finish()}, null_count);
}

}  // namespace recflow
