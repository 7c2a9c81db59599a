// ValueDecoder: Avro binary values → recflow builders, checking UTF-8, enum and union indexes, counts.
#include "recflow/formats/avro/value_decoder_internal.h"

#include <string>
#include <utility>

#include "recflow/columnar/utf8.h"
#include "recflow/formats/avro/decimal_text_internal.h"
#include "recflow/formats/avro/schema_mapping_internal.h"

namespace recflow::avro {

Result<std::unique_ptr<ValueDecoder>> ValueDecoder::Make(const std::string& path, const AvroNode& node) {
  std::unique_ptr<ValueDecoder> decoder(new ValueDecoder(path));
  RETURN_NOT_OK(decoder->Init(node));
  return decoder;
}

Status ValueDecoder::Init(const AvroNode& node) {
  ASSIGN_OR_RETURN(auto unwrapped, Unwrap(node, path_));
  const AvroNode& value = *unwrapped.value;
  num_branches_ = unwrapped.num_branches;
  value_branch_ = unwrapped.value_branch;
  type_ = value.type;
  logical_type_ = value.logical_type;
  scale_ = value.scale;
  fixed_size_ = value.fixed_size;
  symbols_ = value.symbols;
  switch (type_) {
    case AvroType::kNull:
      min_size_ = 0;
      break;
    case AvroType::kFloat:
      min_size_ = 4;
      break;
    case AvroType::kDouble:
      min_size_ = 8;
      break;
    case AvroType::kFixed:
      min_size_ = fixed_size_;
      break;
    case AvroType::kArray: {
      ASSIGN_OR_RETURN(auto item, Make(path_ + "[]", *value.items));
      children_.push_back(std::move(item));
      min_size_ = 1;
      break;
    }
    case AvroType::kMap: {
      ASSIGN_OR_RETURN(auto item, Make(path_ + ".value", *value.items));
      children_.push_back(std::move(item));
      min_size_ = 1;
      break;
    }
    case AvroType::kRecord:
      min_size_ = 0;
      for (const AvroField& field : value.fields) {
        ASSIGN_OR_RETURN(auto child, Make(path_ + "." + field.name, *field.type));
        min_size_ = SaturatingAdd(min_size_, child->min_size());
        children_.push_back(std::move(child));
      }
      break;
    case AvroType::kUnion:
      return Status::TypeError("avro union nested in a union").WithField(path_);
    default:  // boolean, int, long, bytes, string, enum: at least one byte
      min_size_ = 1;
      break;
  }
  if (num_branches_ > 0) min_size_ = 1;  // the branch index
  return Status::OK();
}

Status ValueDecoder::Decode(BinaryCursor& in, ArrayBuilder* builder) const {
  Status st;
  if (num_branches_ == 0) {
    st = DecodeValue(in, builder);
  } else {
    const int64_t start = in.position();
    int64_t branch = 0;
    st = in.ReadLong(&branch);
    if (st.ok() && (branch < 0 || branch >= num_branches_)) {
      st = in.ErrorAt(start, "union branch index " + std::to_string(branch) + " out of range [0, " +
                                 std::to_string(num_branches_) + ")");
    } else if (st.ok()) {
      st = branch != value_branch_ || type_ == AvroType::kNull ? builder->AppendNull() : DecodeValue(in, builder);
    }
  }
  if (!st.ok()) [[unlikely]] return st.WithField(path_);
  return st;
}

Status ValueDecoder::DecodeValue(BinaryCursor& in, ArrayBuilder* builder) const {
  switch (type_) {
    case AvroType::kNull:
      return builder->AppendNull();
    case AvroType::kBoolean: {
      bool v = false;
      RETURN_NOT_OK(in.ReadBoolean(&v));
      return static_cast<BooleanBuilder*>(builder)->Append(v);
    }
    case AvroType::kInt: {
      int32_t v = 0;
      RETURN_NOT_OK(in.ReadInt(&v));
      return static_cast<Int32Builder*>(builder)->Append(v);
    }
    case AvroType::kLong: {
      const int64_t start = in.position();
      int64_t v = 0;
      RETURN_NOT_OK(in.ReadLong(&v));
      if (logical_type_ == LogicalType::kTimestampMillis && __builtin_mul_overflow(v, int64_t{1000}, &v)) {
        return in.ErrorAt(start, "timestamp-millis value does not fit in int64 microseconds");
      }
      return static_cast<Int64Builder*>(builder)->Append(v);
    }
    case AvroType::kFloat: {
      float v = 0;
      RETURN_NOT_OK(in.ReadFloat(&v));
      return static_cast<Float32Builder*>(builder)->Append(v);
    }
    case AvroType::kDouble: {
      double v = 0;
      RETURN_NOT_OK(in.ReadDouble(&v));
      return static_cast<Float64Builder*>(builder)->Append(v);
    }
    case AvroType::kBytes:
    case AvroType::kFixed: {
      std::span<const uint8_t> bytes;
      RETURN_NOT_OK(type_ == AvroType::kBytes ? in.ReadBytes(&bytes) : in.ReadRaw(fixed_size_, &bytes));
      if (logical_type_ == LogicalType::kDecimal) return DecodeDecimal(bytes, builder);
      return static_cast<BinaryBuilder*>(builder)->Append(bytes.data(), static_cast<int64_t>(bytes.size()));
    }
    case AvroType::kString:
      return DecodeString(in, builder);
    case AvroType::kEnum: {
      const int64_t start = in.position();
      int32_t index = 0;
      RETURN_NOT_OK(in.ReadInt(&index));
      if (index < 0 || static_cast<size_t>(index) >= symbols_.size()) {
        return in.ErrorAt(start, "enum index " + std::to_string(index) + " out of range [0, " +
                                     std::to_string(symbols_.size()) + ")");
      }
      return static_cast<BinaryBuilder*>(builder)->Append(symbols_[static_cast<size_t>(index)]);
    }
    case AvroType::kArray:
      return DecodeArray(in, builder);
    case AvroType::kMap:
      return DecodeMap(in, builder);
    case AvroType::kRecord:
      return DecodeRecord(in, builder);
    case AvroType::kUnion:
      break;
  }
  return Status::Internal("avro union nested in a union");
}

Status ValueDecoder::DecodeString(BinaryCursor& in, ArrayBuilder* builder) const {
  const int64_t start = in.position();
  std::span<const uint8_t> bytes;
  RETURN_NOT_OK(in.ReadBytes(&bytes));
  const auto size = static_cast<int64_t>(bytes.size());
  if (!IsValidUtf8(bytes.data(), size)) return in.ErrorAt(start, "string is not valid UTF-8");
  return static_cast<BinaryBuilder*>(builder)->Append(bytes.data(), size);
}

Status ValueDecoder::DecodeDecimal(std::span<const uint8_t> unscaled, ArrayBuilder* builder) const {
  std::string text;
  RETURN_NOT_OK(AppendDecimalText(unscaled, scale_, &text));
  return static_cast<BinaryBuilder*>(builder)->Append(text);
}

Status ValueDecoder::DecodeArray(BinaryCursor& in, ArrayBuilder* builder) const {
  auto* list = static_cast<ListBuilder*>(builder);
  RETURN_NOT_OK(list->Append());
  ArrayBuilder* items = list->value_builder();
  const ValueDecoder& item = *children_[0];
  const bool all_null = item.type_ == AvroType::kNull && item.num_branches_ == 0;
  int64_t total = 0;
  for (;;) {
    const int64_t start = in.position();
    int64_t count = 0;
    RETURN_NOT_OK(in.ReadBlockCount(item.min_size(), &count));
    if (count == 0) return Status::OK();
    total += count;
    if (item.min_size() == 0 && total > kMaxZeroSizeItems) {
      return in.ErrorAt(start, "array of more than " + std::to_string(kMaxZeroSizeItems) + " zero-byte items");
    }
    if (all_null) {
      RETURN_NOT_OK(items->AppendNulls(count));
      continue;
    }
    for (int64_t i = 0; i < count; ++i) RETURN_NOT_OK(item.Decode(in, items));
  }
}

Status ValueDecoder::DecodeMap(BinaryCursor& in, ArrayBuilder* builder) const {
  auto* list = static_cast<ListBuilder*>(builder);
  auto* entries = static_cast<StructBuilder*>(list->value_builder());
  ArrayBuilder* keys = entries->field_builder(0);
  ArrayBuilder* values = entries->field_builder(1);
  const ValueDecoder& value = *children_[0];
  RETURN_NOT_OK(list->Append());
  for (;;) {
    int64_t count = 0;
    RETURN_NOT_OK(in.ReadBlockCount(SaturatingAdd(1, value.min_size()), &count));
    if (count == 0) return Status::OK();
    for (int64_t i = 0; i < count; ++i) {
      RETURN_NOT_OK(entries->Append());
      RETURN_NOT_OK(DecodeString(in, keys));
      RETURN_NOT_OK(value.Decode(in, values));
    }
  }
}

Status ValueDecoder::DecodeRecord(BinaryCursor& in, ArrayBuilder* builder) const {
  auto* record = static_cast<StructBuilder*>(builder);
  RETURN_NOT_OK(record->Append());
  for (size_t i = 0; i < children_.size(); ++i) {
    RETURN_NOT_OK(children_[i]->Decode(in, record->field_builder(static_cast<int>(i))));
  }
  return Status::OK();
}

}  // namespace recflow::avro
