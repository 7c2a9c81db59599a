// ListBuilder and StructBuilder: offsets/validity here, elements in the child builders.
#include "recflow/columnar/builder.h"

#include <algorithm>
#include <string>

#include "recflow/columnar/builder_internal.h"

#include "recflow/columnar/schema.h"

namespace recflow {

ListBuilder::ListBuilder(DataTypePtr list_type, std::unique_ptr<ArrayBuilder> values)
    : ArrayBuilder(std::move(list_type)), values_(std::move(values)) {}

Status ListBuilder::AppendOffsets(int64_t n) {
  const int64_t start = values_->length();
  if (start > kMaxInt32Offset) {
    return internal::OffsetOverflow(type_->ToString(), "child elements");
  }
  RETURN_NOT_OK(offsets_.Reserve(n * static_cast<int64_t>(sizeof(int32_t))));
  for (int64_t i = 0; i < n; ++i) offsets_.UnsafeAppendValue(static_cast<int32_t>(start));
  return Status::OK();
}

Status ListBuilder::Append() {
  RETURN_NOT_OK(AppendOffsets(1));
  return CommitAppend(1, true);
}

Status ListBuilder::AppendNulls(int64_t n) {
  RETURN_NOT_OK(Reserve(n));
  RETURN_NOT_OK(AppendOffsets(n));
  return CommitAppend(n, false);
}

Status ListBuilder::Reserve(int64_t additional) {
  RETURN_NOT_OK(internal::CheckElementCount(additional));
  RETURN_NOT_OK(offsets_.Reserve(additional * static_cast<int64_t>(sizeof(int32_t))));
  return ReserveValidity(additional);
}

Result<std::shared_ptr<ArrayData>> ListBuilder::Finish() {
  const int64_t end = values_->length();
  if (end > kMaxInt32Offset) {
    return internal::OffsetOverflow(type_->ToString(), "child elements");
  }
  ASSIGN_OR_RETURN(auto child, values_->Finish());
  RETURN_NOT_OK(offsets_.AppendValue(static_cast<int32_t>(end)));
  const int64_t length = length_;
  const int64_t null_count = null_count_;
  auto validity = FinishValidity();
  return ArrayData::Make(type_, length, {std::move(validity), offsets_.Finish()}, null_count, 0, {std::move(child)});
}

void ListBuilder::Truncate(int64_t length) {
  length = std::clamp<int64_t>(length, 0, length_);
  if (length < length_) values_->Truncate(reinterpret_cast<const int32_t*>(offsets_.data())[length]);
  offsets_.Truncate(length * static_cast<int64_t>(sizeof(int32_t)));
  TruncateValidity(length);
}

StructBuilder::StructBuilder(DataTypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> field_builders)
    : ArrayBuilder(std::move(type)), fields_(std::move(field_builders)) {}

Status StructBuilder::Append() { return CommitAppend(1, true); }

Status StructBuilder::AppendNulls(int64_t n) {
  for (auto& field : fields_) RETURN_NOT_OK(field->AppendNulls(n));
  return CommitAppend(n, false);
}

Status StructBuilder::Reserve(int64_t additional) {
  RETURN_NOT_OK(internal::CheckElementCount(additional));
  for (auto& field : fields_) RETURN_NOT_OK(field->Reserve(additional));
  return ReserveValidity(additional);
}

void StructBuilder::Truncate(int64_t length) {
  length = std::clamp<int64_t>(length, 0, length_);
  for (auto& field : fields_) field->Truncate(length);
  TruncateValidity(length);
}

Result<std::shared_ptr<ArrayData>> StructBuilder::Finish() {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i]->length() != length_) {
      return Status::InvalidArgument("struct field '" + type_->fields()[i]->name() + "' has " +
                                     std::to_string(fields_[i]->length()) + " elements, the struct " +
                                     std::to_string(length_));
    }
  }
  std::vector<std::shared_ptr<ArrayData>> children;
  children.reserve(fields_.size());
  for (auto& field : fields_) {
    ASSIGN_OR_RETURN(auto child, field->Finish());
    children.push_back(std::move(child));
  }
  const int64_t length = length_;
  const int64_t null_count = null_count_;
  auto validity = FinishValidity();
  return ArrayData::Make(type_, length, {std::move(validity)}, null_count, 0, std::move(children));
}

}  // namespace recflow
