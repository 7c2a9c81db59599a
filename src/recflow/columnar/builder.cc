// ArrayBuilder validity handling, numeric, boolean and null builders, MakeBuilder.
#include "recflow/columnar/builder.h"

#include <algorithm>
#include <string>

#include "recflow/columnar/builder_internal.h"
#include "recflow/columnar/schema.h"

namespace recflow {

using internal::CheckElementCount;

ArrayBuilder::ArrayBuilder(DataTypePtr type) : type_(std::move(type)) {}

ArrayBuilder::~ArrayBuilder() = default;

Status ArrayBuilder::AppendNull() { return AppendNulls(1); }

Status ArrayBuilder::CommitAppend(int64_t n, bool valid) {
  if (!valid && !has_validity_ && n > 0) {
    // First null: back-fill the elements so far as valid.
    // Keep room for what Reserve() promised, so UnsafeAppend stays safe after the switch.
    RETURN_NOT_OK(validity_.Reserve(bit_util::BytesForBits(std::max(reserved_, length_ + n))));
    RETURN_NOT_OK(validity_.Resize(bit_util::BytesForBits(length_)));
    bit_util::SetBitsTo(validity_.mutable_data(), 0, length_, true);
    has_validity_ = true;
  }
  if (has_validity_) {
    RETURN_NOT_OK(validity_.Resize(bit_util::BytesForBits(length_ + n)));
    if (valid) bit_util::SetBitsTo(validity_.mutable_data(), length_, n, true);
  }
  length_ += n;
  if (!valid) null_count_ += n;
  return Status::OK();
}

Status ArrayBuilder::ReserveValidity(int64_t additional) {
  reserved_ = std::max(reserved_, length_ + additional);
  if (!has_validity_) return Status::OK();
  return validity_.Reserve(bit_util::BytesForBits(length_ + additional) - validity_.size());
}

std::shared_ptr<Buffer> ArrayBuilder::FinishValidity() {
  std::shared_ptr<Buffer> out;
  if (has_validity_) {
    out = validity_.Finish();
    if (null_count_ == 0) out = nullptr;
  }
  has_validity_ = false;
  reserved_ = 0;
  length_ = 0;
  null_count_ = 0;
  return out;
}

void ArrayBuilder::TruncateValidity(int64_t length) {
  if (has_validity_) {
    const int64_t dropped = length_ - length;
    null_count_ -= dropped - bit_util::CountSetBits(validity_.data(), length, dropped);
    const int64_t bytes = bit_util::BytesForBits(length);
    // Clear the dropped bits of the last byte kept: appends only set bits.
    bit_util::SetBitsTo(validity_.mutable_data(), length, bytes * 8 - length, false);
    validity_.Truncate(bytes);
  }
  length_ = length;
}

template <typename T>
Status NumericBuilder<T>::AppendValues(const T* values, int64_t n) {
  RETURN_NOT_OK(CheckElementCount(n));
  RETURN_NOT_OK(values_.Append(values, n * static_cast<int64_t>(sizeof(T))));
  return CommitAppend(n, true);
}

template <typename T>
Status NumericBuilder<T>::AppendUninitialized(int64_t n, T** out) {
  RETURN_NOT_OK(CheckElementCount(n));
  const int64_t start = values_.size();
  RETURN_NOT_OK(values_.Reserve(n * static_cast<int64_t>(sizeof(T))));
  RETURN_NOT_OK(CommitAppend(n, true));
  values_.UnsafeAdvance(n * static_cast<int64_t>(sizeof(T)));
  *out = reinterpret_cast<T*>(values_.mutable_data() + start);
  return Status::OK();
}

template <typename T>
Status NumericBuilder<T>::AppendNulls(int64_t n) {
  RETURN_NOT_OK(CheckElementCount(n));
  RETURN_NOT_OK(values_.Resize(values_.size() + n * static_cast<int64_t>(sizeof(T))));
  return CommitAppend(n, false);
}

template <typename T>
Status NumericBuilder<T>::Reserve(int64_t additional) {
  RETURN_NOT_OK(CheckElementCount(additional));
  RETURN_NOT_OK(values_.Reserve(additional * static_cast<int64_t>(sizeof(T))));
  return ReserveValidity(additional);
}

template <typename T>
Result<std::shared_ptr<ArrayData>> NumericBuilder<T>::Finish() {
  const int64_t length = length_;
  const int64_t null_count = null_count_;
  auto validity = FinishValidity();
  return ArrayData::Make(type_, length, {std::move(validity), values_.Finish()}, null_count);
}

template <typename T>
void NumericBuilder<T>::Truncate(int64_t length) {
  length = std::clamp<int64_t>(length, 0, length_);
  values_.Truncate(length * static_cast<int64_t>(sizeof(T)));
  TruncateValidity(length);
}

template class NumericBuilder<int8_t>;
template class NumericBuilder<int16_t>;
template class NumericBuilder<int32_t>;
template class NumericBuilder<int64_t>;
template class NumericBuilder<uint8_t>;
template class NumericBuilder<uint16_t>;
template class NumericBuilder<uint32_t>;
template class NumericBuilder<uint64_t>;
template class NumericBuilder<float>;
template class NumericBuilder<double>;

BooleanBuilder::BooleanBuilder() : ArrayBuilder(boolean()) {}

Status BooleanBuilder::AppendNulls(int64_t n) {
  RETURN_NOT_OK(CheckElementCount(n));
  RETURN_NOT_OK(values_.Resize(bit_util::BytesForBits(length_ + n)));
  return CommitAppend(n, false);
}

Status BooleanBuilder::Reserve(int64_t additional) {
  RETURN_NOT_OK(CheckElementCount(additional));
  RETURN_NOT_OK(values_.Reserve(bit_util::BytesForBits(length_ + additional) - values_.size()));
  return ReserveValidity(additional);
}

Result<std::shared_ptr<ArrayData>> BooleanBuilder::Finish() {
  const int64_t length = length_;
  const int64_t null_count = null_count_;
  auto validity = FinishValidity();
  return ArrayData::Make(type_, length, {std::move(validity), values_.Finish()}, null_count);
}

void BooleanBuilder::Truncate(int64_t length) {
  length = std::clamp<int64_t>(length, 0, length_);
  const int64_t bytes = bit_util::BytesForBits(length);
  bit_util::SetBitsTo(values_.mutable_data(), length, bytes * 8 - length, false);
  values_.Truncate(bytes);
  TruncateValidity(length);
}

NullBuilder::NullBuilder() : ArrayBuilder(null()) {}

Status NullBuilder::AppendNulls(int64_t n) {
  RETURN_NOT_OK(CheckElementCount(n));
  length_ += n;
  null_count_ += n;
  return Status::OK();
}

Status NullBuilder::Reserve(int64_t additional) { return CheckElementCount(additional); }

Result<std::shared_ptr<ArrayData>> NullBuilder::Finish() {
  auto out = ArrayData::Make(type_, length_, {}, length_);
  length_ = null_count_ = 0;
  return out;
}

void NullBuilder::Truncate(int64_t length) { length_ = null_count_ = std::clamp<int64_t>(length, 0, length_); }

Result<std::unique_ptr<ArrayBuilder>> MakeBuilder(const DataTypePtr& type) {
  if (type == nullptr) return Status::InvalidArgument("MakeBuilder: no type");
  switch (type->id()) {
    case TypeId::kNull: return std::unique_ptr<ArrayBuilder>(new NullBuilder());
    case TypeId::kBool: return std::unique_ptr<ArrayBuilder>(new BooleanBuilder());
    case TypeId::kInt8: return std::unique_ptr<ArrayBuilder>(new Int8Builder(type));
    case TypeId::kInt16: return std::unique_ptr<ArrayBuilder>(new Int16Builder(type));
    case TypeId::kInt32: return std::unique_ptr<ArrayBuilder>(new Int32Builder(type));
    case TypeId::kInt64: return std::unique_ptr<ArrayBuilder>(new Int64Builder(type));
    case TypeId::kUInt8: return std::unique_ptr<ArrayBuilder>(new UInt8Builder(type));
    case TypeId::kUInt16: return std::unique_ptr<ArrayBuilder>(new UInt16Builder(type));
    case TypeId::kUInt32: return std::unique_ptr<ArrayBuilder>(new UInt32Builder(type));
    case TypeId::kUInt64: return std::unique_ptr<ArrayBuilder>(new UInt64Builder(type));
    case TypeId::kFloat32: return std::unique_ptr<ArrayBuilder>(new Float32Builder(type));
    case TypeId::kFloat64: return std::unique_ptr<ArrayBuilder>(new Float64Builder(type));
    // Dates, times, timestamps and durations: their integer storage, typed as themselves.
    case TypeId::kDate32:
    case TypeId::kTime32: return std::unique_ptr<ArrayBuilder>(new Int32Builder(type));
    case TypeId::kDate64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDuration: return std::unique_ptr<ArrayBuilder>(new Int64Builder(type));
    case TypeId::kBinary:
    case TypeId::kUtf8: return std::unique_ptr<ArrayBuilder>(new BinaryBuilder(type));
    case TypeId::kList: {
      ASSIGN_OR_RETURN(auto values, MakeBuilder(type->value_type()));
      return std::unique_ptr<ArrayBuilder>(new ListBuilder(type, std::move(values)));
    }
    case TypeId::kStruct: {
      std::vector<std::unique_ptr<ArrayBuilder>> fields;
      for (const auto& field : type->fields()) {
        ASSIGN_OR_RETURN(auto child, MakeBuilder(field->type()));
        fields.push_back(std::move(child));
      }
      return std::unique_ptr<ArrayBuilder>(new StructBuilder(type, std::move(fields)));
    }
    default: break;
  }
  return Status::InvalidArgument("MakeBuilder: no builder for " + type->ToString());
}

Result<std::shared_ptr<ArrayData>> MakeEmptyArray(const DataTypePtr& type) {
  ASSIGN_OR_RETURN(auto builder, MakeBuilder(type));
  return builder->Finish();
}

}  // namespace recflow
