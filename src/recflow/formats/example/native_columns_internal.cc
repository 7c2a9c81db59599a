// NativeType / ToNative: each Arrow layout rebuilt as the encoder's native types, values read through element access.
#include "recflow/formats/example/native_columns_internal.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/builder.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/schema.h"
#include "recflow/columnar/take.h"
#include "recflow/columnar/value_text.h"

namespace recflow::example {
namespace {

bool IsNativeLeaf(TypeId id) {
  switch (id) {
    case TypeId::kNull: case TypeId::kBool: case TypeId::kFloat32: case TypeId::kFloat64:
    case TypeId::kBinary: case TypeId::kUtf8: return true;
    default: return id >= TypeId::kInt8 && id <= TypeId::kUInt64;
  }
}

bool IsListLike(TypeId id) {
  return id == TypeId::kList || id == TypeId::kLargeList || id == TypeId::kFixedSizeList || id == TypeId::kMap ||
         id == TypeId::kListView || id == TypeId::kLargeListView;
}

/// The validity of `data`'s elements as a fresh bitmap from bit 0 (nullptr without nulls), and
/// its null count.
Result<std::shared_ptr<Buffer>> ValidityOf(const ArrayData& data, int64_t* null_count) {
  *null_count = 0;
  if (data.null_count == 0) return std::shared_ptr<Buffer>();
  ASSIGN_OR_RETURN(auto bits, Buffer::Allocate(bit_util::BytesForBits(data.length)));
  int64_t i = 0;
  const int64_t valid = bit_util::GenerateBits(const_cast<uint8_t*>(bits->data()), 0, data.length,
                                               [&] { return IsValidAt(data, i++); });
  *null_count = data.length - valid;
  return bits;
}

/// A fixed-width array of `type` with `values` and `data`'s validity.
template <typename T>
Result<std::shared_ptr<ArrayData>> FixedOf(const DataTypePtr& type, const std::vector<T>& values, const ArrayData& data) {
  int64_t nulls = 0;
  ASSIGN_OR_RETURN(auto validity, ValidityOf(data, &nulls));
  ASSIGN_OR_RETURN(auto buffer, Buffer::CopyOf({reinterpret_cast<const uint8_t*>(values.data()), values.size() * sizeof(T)}));
  return ArrayData::Make(type, data.length, {std::move(validity), std::move(buffer)}, nulls);
}

/// Appends `value` to the bytes of a binary array being built, with its end offset.
Status AppendBytes(std::string_view value, std::string* bytes, std::vector<int32_t>* offsets) {
  if (static_cast<int64_t>(bytes->size()) + static_cast<int64_t>(value.size()) > std::numeric_limits<int32_t>::max()) {
    return Status::DataError("more than 2 GiB of bytes in one batch of one column, which tf.Example bytes cannot index");
  }
  bytes->append(value);
  offsets->push_back(static_cast<int32_t>(bytes->size()));
  return Status::OK();
}

/// A binary or utf8 (`type`) array of the texts `text(i)` gives for the valid elements of `data`.
template <typename Text>
Result<std::shared_ptr<ArrayData>> BinaryOf(const DataTypePtr& type, const ArrayData& data, Text&& text) {
  std::vector<int32_t> offsets = {0};
  std::string bytes;
  std::string scratch;
  for (int64_t i = 0; i < data.length; ++i) {
    scratch.clear();
    if (IsValidAt(data, i)) text(i, &scratch);
    RETURN_NOT_OK(AppendBytes(scratch, &bytes, &offsets));
  }
  int64_t nulls = 0;
  ASSIGN_OR_RETURN(auto validity, ValidityOf(data, &nulls));
  ASSIGN_OR_RETURN(auto offset_buffer,
                   Buffer::CopyOf({reinterpret_cast<const uint8_t*>(offsets.data()), offsets.size() * sizeof(int32_t)}));
  return ArrayData::Make(type, data.length, {std::move(validity), std::move(offset_buffer), Buffer::FromString(bytes)},
                         nulls);
}

/// The decimal at element `i` of `data` as its exact text.
void DecimalText(const ArrayData& data, int64_t i, std::string* out) {
  const int width = data.type->bit_width() / 8;
  AppendDecimalText(data.buffers[1]->data() + (data.offset + i) * width, width, data.type->params().scale, out);
}

/// `positions` of `values` (any of them for a null of `data`), with `data`'s nulls added.
Result<std::shared_ptr<ArrayData>> Gather(const ArrayData& data, const std::shared_ptr<ArrayData>& values,
                                          const std::vector<int64_t>& positions) {
  ASSIGN_OR_RETURN(auto out, Take(*values, positions));
  return WithNullsOf(data, std::move(out));
}

/// All `length` elements null, of native `type`.
Result<std::shared_ptr<ArrayData>> NullsOf(const DataTypePtr& type, int64_t length) {
  ASSIGN_OR_RETURN(auto builder, MakeBuilder(type));
  RETURN_NOT_OK(builder->AppendNulls(length));
  return builder->Finish();
}

/// A dictionary's values looked up (nulls where an index is null).
Result<std::shared_ptr<ArrayData>> Decode(const ArrayData& data, DecimalFeatures decimals) {
  ASSIGN_OR_RETURN(auto values, ToNative(*data.dictionary, decimals));
  if (values->length == 0) return NullsOf(values->type, data.length);  // then every index is null
  std::vector<int64_t> positions(static_cast<size_t>(data.length), 0);
  for (int64_t i = 0; i < data.length; ++i) {
    if (IsValidAt(data, i)) positions[static_cast<size_t>(i)] = DictionaryIndex(data, i);
  }
  return Gather(data, values, positions);
}

/// A run-end encoded array's values, one per element.
Result<std::shared_ptr<ArrayData>> Expand(const ArrayData& data, DecimalFeatures decimals) {
  ASSIGN_OR_RETURN(auto values, ToNative(*data.children[1], decimals));
  std::vector<int64_t> positions(static_cast<size_t>(data.length));
  for (int64_t i = 0; i < data.length; ++i) positions[static_cast<size_t>(i)] = RunIndex(data, i);
  return Take(*values, positions);
}

/// Any list kind as list<item>: int32 offsets over its elements' child ranges, which are
/// gathered in order (list views may hold them in any order) and converted.
Result<std::shared_ptr<ArrayData>> ToList(const ArrayData& data, const DataTypePtr& native, DecimalFeatures decimals) {
  std::vector<int32_t> offsets = {0};
  std::vector<int64_t> positions;
  for (int64_t i = 0; i < data.length; ++i) {
    if (IsValidAt(data, i)) {
      const ChildRange range = ListRange(data, i);
      if (static_cast<int64_t>(positions.size()) + range.length > std::numeric_limits<int32_t>::max()) {
        return Status::DataError("more than 2^31 list values in one batch of one column");
      }
      for (int64_t k = 0; k < range.length; ++k) positions.push_back(range.start + k);
    }
    offsets.push_back(static_cast<int32_t>(positions.size()));
  }
  ASSIGN_OR_RETURN(auto child, ToNative(*data.children[0], decimals));
  ASSIGN_OR_RETURN(child, Take(*child, positions));
  int64_t nulls = 0;
  ASSIGN_OR_RETURN(auto validity, ValidityOf(data, &nulls));
  ASSIGN_OR_RETURN(auto offset_buffer,
                   Buffer::CopyOf({reinterpret_cast<const uint8_t*>(offsets.data()), offsets.size() * sizeof(int32_t)}));
  return ArrayData::Make(native, data.length, {std::move(validity), std::move(offset_buffer)}, nulls, 0, {child});
}

/// A struct of its members converted (each sliced to the struct's elements).
Result<std::shared_ptr<ArrayData>> ToStruct(const ArrayData& data, const DataTypePtr& native, DecimalFeatures decimals) {
  std::vector<std::shared_ptr<ArrayData>> members;
  for (const auto& child : data.children) {
    ASSIGN_OR_RETURN(auto member, ToNative(*child->Slice(data.offset, data.length), decimals));
    members.push_back(std::move(member));
  }
  int64_t nulls = 0;
  ASSIGN_OR_RETURN(auto validity, ValidityOf(data, &nulls));
  return ArrayData::Make(native, data.length, {std::move(validity)}, nulls, 0, std::move(members));
}

}  // namespace

Result<std::shared_ptr<ArrayData>> WithNullsOf(const ArrayData& data, std::shared_ptr<ArrayData> values) {
  if (data.null_count == 0 || values->type->id() == TypeId::kNull) return values;
  ASSIGN_OR_RETURN(auto bits, Buffer::Allocate(bit_util::BytesForBits(values->length)));
  int64_t i = 0;
  const int64_t valid = bit_util::GenerateBits(const_cast<uint8_t*>(bits->data()), 0, values->length, [&] {
    const bool both = IsValidAt(data, i) && IsValidAt(*values, i);
    ++i;
    return both;
  });
  auto out = std::make_shared<ArrayData>(*values);
  out->buffers[0] = std::move(bits);
  out->null_count = out->length - valid;
  return out;
}

Result<DataTypePtr> NativeType(const DataTypePtr& type, DecimalFeatures decimals) {
  const TypeId id = type->id();
  if (IsNativeLeaf(id)) return type;
  switch (id) {
    case TypeId::kFloat16: return float32();
    case TypeId::kDate32: case TypeId::kDate64: case TypeId::kTime32: case TypeId::kTime64:
    case TypeId::kTimestamp: case TypeId::kDuration: return int64();
    case TypeId::kInterval:
      if (type->params().interval == IntervalUnit::kYearMonth) return int64();
      return Status::TypeError("tf.Example has no form for day-time and month-day-nano intervals (an interval of "
                               "months is written as int64 months)");
    case TypeId::kDecimal32: case TypeId::kDecimal64: case TypeId::kDecimal128: case TypeId::kDecimal256:
      return decimals == DecimalFeatures::kText ? utf8() : float64();
    case TypeId::kLargeBinary: case TypeId::kFixedSizeBinary: case TypeId::kBinaryView: return binary();
    case TypeId::kLargeUtf8: case TypeId::kUtf8View: return utf8();
    case TypeId::kDictionary: case TypeId::kRunEndEncoded: return NativeType(type->value_type(), decimals);
    case TypeId::kStruct: {
      std::vector<FieldPtr> members;
      for (const FieldPtr& member : type->fields()) {
        ASSIGN_OR_RETURN(DataTypePtr native, NativeType(member->type(), decimals));
        members.push_back(Field::Make(member->name(), std::move(native), member->nullable(), member->metadata()));
      }
      return struct_(std::move(members));
    }
    case TypeId::kUnion:
      return Status::TypeError("tf.Example has no form for unions (a feature holds one kind of values)");
    default: break;
  }
  if (!IsListLike(id)) return Status::TypeError("tf.Example has no form for " + type->ToString());
  const FieldPtr& item = type->fields()[0];
  ASSIGN_OR_RETURN(DataTypePtr native, NativeType(item->type(), decimals));
  return list(Field::Make(item->name(), std::move(native), item->nullable(), item->metadata()));
}

Result<std::shared_ptr<ArrayData>> ToNative(const ArrayData& data, DecimalFeatures decimals) {
  const DataTypePtr& type = data.type;
  const TypeId id = type->id();
  ASSIGN_OR_RETURN(const DataTypePtr native, NativeType(type, decimals));
  if (IsNativeLeaf(id)) return std::make_shared<ArrayData>(data);
  switch (id) {
    case TypeId::kFloat16: {
      std::vector<float> values(static_cast<size_t>(data.length));
      const auto* halves = data.GetValues<uint16_t>(1);
      for (int64_t i = 0; i < data.length; ++i) values[static_cast<size_t>(i)] = HalfToFloat(halves[i]);
      return FixedOf(native, values, data);
    }
    case TypeId::kInterval: {  // year-month: int32 months
      std::vector<int64_t> values(static_cast<size_t>(data.length));
      for (int64_t i = 0; i < data.length; ++i) values[static_cast<size_t>(i)] = data.GetValues<int32_t>(1)[i];
      return FixedOf(native, values, data);
    }
    case TypeId::kDate32: case TypeId::kDate64: case TypeId::kTime32: case TypeId::kTime64:
    case TypeId::kTimestamp: case TypeId::kDuration: {
      std::vector<int64_t> values(static_cast<size_t>(data.length));
      for (int64_t i = 0; i < data.length; ++i) values[static_cast<size_t>(i)] = IntegerValue(data, i);
      return FixedOf(native, values, data);
    }
    case TypeId::kDecimal32: case TypeId::kDecimal64: case TypeId::kDecimal128: case TypeId::kDecimal256: {
      if (decimals == DecimalFeatures::kText) {
        return BinaryOf(native, data, [&](int64_t i, std::string* out) { DecimalText(data, i, out); });
      }
      std::vector<double> values(static_cast<size_t>(data.length), 0.0);
      std::string text;
      for (int64_t i = 0; i < data.length; ++i) {
        if (!IsValidAt(data, i)) continue;
        text.clear();
        DecimalText(data, i, &text);  // the nearest double of the exact text
        std::from_chars(text.data(), text.data() + text.size(), values[static_cast<size_t>(i)]);
      }
      return FixedOf(native, values, data);
    }
    case TypeId::kLargeBinary: case TypeId::kFixedSizeBinary: case TypeId::kBinaryView:
    case TypeId::kLargeUtf8: case TypeId::kUtf8View:
      return BinaryOf(native, data, [&](int64_t i, std::string* out) { out->append(BinaryValue(data, i)); });
    case TypeId::kDictionary: return Decode(data, decimals);
    case TypeId::kRunEndEncoded: return Expand(data, decimals);
    case TypeId::kStruct: return ToStruct(data, native, decimals);
    case TypeId::kList: {  // its own offsets, over the child converted whole
      ASSIGN_OR_RETURN(auto child, ToNative(*data.children[0], decimals));
      auto out = std::make_shared<ArrayData>(data);
      out->type = native;
      out->children = {std::move(child)};
      return out;
    }
    default: return ToList(data, native, decimals);
  }
}

}  // namespace recflow::example
