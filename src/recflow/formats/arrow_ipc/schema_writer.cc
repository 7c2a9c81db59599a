// BuildSchema: recflow types as Arrow's Type union members, fields with dictionaries and metadata.
#include "recflow/formats/arrow_ipc/schema_writer_internal.h"

#include <string>

namespace recflow::arrow_ipc {

namespace {

using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

fb::TimeUnit UnitOf(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return fb::TimeUnit::SECOND;
    case TimeUnit::kMilli: return fb::TimeUnit::MILLISECOND;
    case TimeUnit::kMicro: return fb::TimeUnit::MICROSECOND;
    case TimeUnit::kNano: return fb::TimeUnit::NANOSECOND;
  }
  return fb::TimeUnit::SECOND;
}

Offset<fb::Int> IntOf(FlatBufferBuilder& fbb, const DataType& type) {
  const bool is_signed = type.id() >= TypeId::kInt8 && type.id() <= TypeId::kInt64;
  return fb::CreateInt(fbb, type.bit_width(), is_signed);
}

/// The Type union member (and its table) of a non-dictionary type.
std::pair<fb::Type, Offset<void>> TypeOf(FlatBufferBuilder& fbb, const DataType& type) {
  const TypeParams& p = type.params();
  switch (type.id()) {
    case TypeId::kNull: return {fb::Type::Null, fb::CreateNull(fbb).Union()};
    case TypeId::kBool: return {fb::Type::Bool, fb::CreateBool(fbb).Union()};
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
      return {fb::Type::Int, IntOf(fbb, type).Union()};
    case TypeId::kFloat16: return {fb::Type::FloatingPoint, fb::CreateFloatingPoint(fbb, fb::Precision::HALF).Union()};
    case TypeId::kFloat32: return {fb::Type::FloatingPoint, fb::CreateFloatingPoint(fbb, fb::Precision::SINGLE).Union()};
    case TypeId::kFloat64: return {fb::Type::FloatingPoint, fb::CreateFloatingPoint(fbb, fb::Precision::DOUBLE).Union()};
    case TypeId::kBinary: return {fb::Type::Binary, fb::CreateBinary(fbb).Union()};
    case TypeId::kUtf8: return {fb::Type::Utf8, fb::CreateUtf8(fbb).Union()};
    case TypeId::kLargeBinary: return {fb::Type::LargeBinary, fb::CreateLargeBinary(fbb).Union()};
    case TypeId::kLargeUtf8: return {fb::Type::LargeUtf8, fb::CreateLargeUtf8(fbb).Union()};
    case TypeId::kFixedSizeBinary:
      return {fb::Type::FixedSizeBinary, fb::CreateFixedSizeBinary(fbb, p.width).Union()};
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      return {fb::Type::Decimal, fb::CreateDecimal(fbb, p.width, p.scale, type.bit_width()).Union()};
    case TypeId::kDate32: return {fb::Type::Date, fb::CreateDate(fbb, fb::DateUnit::DAY).Union()};
    case TypeId::kDate64: return {fb::Type::Date, fb::CreateDate(fbb, fb::DateUnit::MILLISECOND).Union()};
    case TypeId::kTime32:
    case TypeId::kTime64: return {fb::Type::Time, fb::CreateTime(fbb, UnitOf(p.unit), type.bit_width()).Union()};
    case TypeId::kTimestamp: {
      const auto timezone = p.timezone.empty() ? Offset<flatbuffers::String>() : fbb.CreateString(p.timezone);
      return {fb::Type::Timestamp, fb::CreateTimestamp(fbb, UnitOf(p.unit), timezone).Union()};
    }
    case TypeId::kDuration: return {fb::Type::Duration, fb::CreateDuration(fbb, UnitOf(p.unit)).Union()};
    case TypeId::kInterval: {
      static constexpr fb::IntervalUnit kUnits[] = {fb::IntervalUnit::YEAR_MONTH, fb::IntervalUnit::DAY_TIME,
                                                    fb::IntervalUnit::MONTH_DAY_NANO};
      return {fb::Type::Interval, fb::CreateInterval(fbb, kUnits[static_cast<int>(p.interval)]).Union()};
    }
    case TypeId::kList: return {fb::Type::List, fb::CreateList(fbb).Union()};
    case TypeId::kLargeList: return {fb::Type::LargeList, fb::CreateLargeList(fbb).Union()};
    case TypeId::kFixedSizeList: return {fb::Type::FixedSizeList, fb::CreateFixedSizeList(fbb, p.width).Union()};
    case TypeId::kStruct: return {fb::Type::Struct_, fb::CreateStruct_(fbb).Union()};
    case TypeId::kMap: return {fb::Type::Map, fb::CreateMap(fbb, p.keys_sorted).Union()};
    case TypeId::kUnion: {
      const std::vector<int32_t> codes(p.type_codes.begin(), p.type_codes.end());
      const auto mode = p.union_mode == UnionMode::kDense ? fb::UnionMode::Dense : fb::UnionMode::Sparse;
      return {fb::Type::Union, fb::CreateUnion(fbb, mode, fbb.CreateVector(codes)).Union()};
    }
    case TypeId::kBinaryView: return {fb::Type::BinaryView, fb::CreateBinaryView(fbb).Union()};
    case TypeId::kUtf8View: return {fb::Type::Utf8View, fb::CreateUtf8View(fbb).Union()};
    case TypeId::kListView: return {fb::Type::ListView, fb::CreateListView(fbb).Union()};
    case TypeId::kLargeListView: return {fb::Type::LargeListView, fb::CreateLargeListView(fbb).Union()};
    case TypeId::kRunEndEncoded: return {fb::Type::RunEndEncoded, fb::CreateRunEndEncoded(fbb).Union()};
    case TypeId::kDictionary: break;  // BuildField writes the value type with a DictionaryEncoding
  }
  return {fb::Type::NONE, Offset<void>()};
}

Offset<flatbuffers::Vector<Offset<fb::KeyValue>>> MetadataOf(FlatBufferBuilder& fbb, const KeyValueMetadata* metadata) {
  if (metadata == nullptr || metadata->size() == 0) return 0;
  std::vector<Offset<fb::KeyValue>> pairs;
  for (int64_t i = 0; i < metadata->size(); ++i) {
    const auto key = fbb.CreateString(metadata->key(i));
    const auto value = fbb.CreateString(metadata->value(i));
    pairs.push_back(fb::CreateKeyValue(fbb, key, value));
  }
  return fbb.CreateVector(pairs);
}

/// Builds a field whose array is reached by `path`; dictionary types list themselves.
Offset<fb::Field> BuildField(FlatBufferBuilder& fbb, const Field& field, std::vector<int> path,
                             std::vector<DictionaryField>* dictionaries) {
  DataTypePtr type = field.type();
  Offset<fb::DictionaryEncoding> encoding = 0;
  if (type->id() == TypeId::kDictionary) {
    const int64_t id = static_cast<int64_t>(dictionaries->size());
    dictionaries->push_back({id, path, type->value_type()});
    encoding = fb::CreateDictionaryEncoding(fbb, id, IntOf(fbb, *type->params().index_type), type->params().ordered);
    path.push_back(kDictionaryStep);
    type = type->value_type();
  }
  std::vector<Offset<fb::Field>> children;
  const std::vector<FieldPtr>& members = type->fields();
  for (size_t i = 0; i < members.size(); ++i) {
    std::vector<int> child_path = path;
    child_path.push_back(static_cast<int>(i));
    children.push_back(BuildField(fbb, *members[i], std::move(child_path), dictionaries));
  }
  const auto name = fbb.CreateString(field.name());
  const auto [type_type, type_table] = TypeOf(fbb, *type);
  const auto children_vector = fbb.CreateVector(children);
  const auto metadata = MetadataOf(fbb, field.metadata().get());
  return fb::CreateField(fbb, name, field.nullable(), type_type, type_table, encoding, children_vector, metadata);
}

}  // namespace

flatbuffers::Offset<fb::Schema> BuildSchema(flatbuffers::FlatBufferBuilder& fbb, const Schema& schema,
                                            std::vector<DictionaryField>* dictionaries) {
  std::vector<Offset<fb::Field>> fields;
  for (int i = 0; i < schema.num_fields(); ++i) fields.push_back(BuildField(fbb, *schema.field(i), {i}, dictionaries));
  const auto fields_vector = fbb.CreateVector(fields);
  const auto metadata = MetadataOf(fbb, schema.metadata().get());
  return fb::CreateSchema(fbb, fb::Endianness::Little, fields_vector, metadata);
}

std::vector<DictionaryField> ListDictionaries(const Schema& schema) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<DictionaryField> dictionaries;
  (void)BuildSchema(fbb, schema, &dictionaries);
  return dictionaries;
}

const ArrayData& ArrayAtPath(const RecordBatch& batch, const std::vector<int>& path) {
  const ArrayData* data = batch.column_data(path[0]).get();
  for (size_t k = 1; k < path.size(); ++k) {
    data = path[k] == kDictionaryStep ? data->dictionary.get() : data->children[static_cast<size_t>(path[k])].get();
  }
  return *data;
}

}  // namespace recflow::arrow_ipc
