// ConvertSchema / ConvertField / ConvertFieldType: IPC type descriptors to recflow DataTypes.
#include "recflow/formats/arrow_ipc/schema_convert.h"

#include <string>
#include <utility>

namespace recflow::arrow_ipc {
namespace {

Status ConvertError(const std::string& what) { return Status::DataError("arrow ipc: " + what); }

recflow::TimeUnit ToTimeUnit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return recflow::TimeUnit::kSecond;
    case TimeUnit::kMillisecond: return recflow::TimeUnit::kMilli;
    case TimeUnit::kMicrosecond: return recflow::TimeUnit::kMicro;
    case TimeUnit::kNanosecond: return recflow::TimeUnit::kNano;
  }
  return recflow::TimeUnit::kSecond;
}

Result<DataTypePtr> IntType(const TypeDesc& type) {
  switch (type.bit_width) {
    case 8: return type.is_signed ? int8() : uint8();
    case 16: return type.is_signed ? int16() : uint16();
    case 32: return type.is_signed ? int32() : uint32();
    case 64: return type.is_signed ? int64() : uint64();
    default: return ConvertError("int of " + std::to_string(type.bit_width) + " bits");
  }
}

std::shared_ptr<const recflow::KeyValueMetadata> ToMetadata(const KeyValueMetadata& pairs) {
  if (pairs.empty()) return nullptr;
  return std::make_shared<const recflow::KeyValueMetadata>(pairs);
}

Result<std::vector<FieldPtr>> ConvertChildren(const FieldDesc& field) {
  std::vector<FieldPtr> children;
  children.reserve(field.children.size());
  for (const FieldDesc& child : field.children) {
    ASSIGN_OR_RETURN(FieldPtr converted, ConvertField(child));
    children.push_back(std::move(converted));
  }
  return children;
}

Status ExpectChildren(const FieldDesc& field, size_t n) {
  if (field.children.size() == n) return Status::OK();
  return ConvertError("field '" + field.name + "' of type " + TypeToString(field.type) + " has " +
                      std::to_string(field.children.size()) + " children, not " + std::to_string(n));
}

/// The value type of `field`, ignoring its dictionary encoding.
Result<DataTypePtr> ConvertValueType(const FieldDesc& field) {
  const TypeDesc& t = field.type;
  ASSIGN_OR_RETURN(std::vector<FieldPtr> children, ConvertChildren(field));
  switch (t.id) {
    case TypeId::kNull: return null();
    case TypeId::kBool: return boolean();
    case TypeId::kInt: return IntType(t);
    case TypeId::kFloatingPoint:
      return t.precision == FloatPrecision::kHalf     ? float16()
             : t.precision == FloatPrecision::kSingle ? float32()
                                                      : float64();
    case TypeId::kDecimal: return decimal(t.decimal_precision, t.decimal_scale, t.bit_width);
    case TypeId::kDate: return t.date_unit == DateUnit::kDay ? date32() : date64();
    case TypeId::kTime:
      return t.bit_width == 32 ? time32(ToTimeUnit(t.time_unit)) : time64(ToTimeUnit(t.time_unit));
    case TypeId::kTimestamp: return timestamp(ToTimeUnit(t.time_unit), t.timezone);
    case TypeId::kDuration: return duration(ToTimeUnit(t.time_unit));
    case TypeId::kInterval:
      return interval(t.interval_unit == IntervalUnit::kYearMonth ? recflow::IntervalUnit::kYearMonth
                      : t.interval_unit == IntervalUnit::kDayTime ? recflow::IntervalUnit::kDayTime
                                                                  : recflow::IntervalUnit::kMonthDayNano);
    case TypeId::kBinary: return binary();
    case TypeId::kUtf8: return utf8();
    case TypeId::kLargeBinary: return large_binary();
    case TypeId::kLargeUtf8: return large_utf8();
    case TypeId::kFixedSizeBinary: return fixed_size_binary(t.byte_width);
    case TypeId::kList: RETURN_NOT_OK(ExpectChildren(field, 1)); return list(children[0]);
    case TypeId::kLargeList: RETURN_NOT_OK(ExpectChildren(field, 1)); return large_list(children[0]);
    case TypeId::kFixedSizeList: RETURN_NOT_OK(ExpectChildren(field, 1)); return fixed_size_list(children[0], t.list_size);
    case TypeId::kStruct: return struct_(std::move(children));
    case TypeId::kBinaryView: return binary_view();
    case TypeId::kUtf8View: return utf8_view();
    case TypeId::kListView: RETURN_NOT_OK(ExpectChildren(field, 1)); return list_view(children[0]);
    case TypeId::kLargeListView: RETURN_NOT_OK(ExpectChildren(field, 1)); return large_list_view(children[0]);
    case TypeId::kRunEndEncoded:
      RETURN_NOT_OK(ExpectChildren(field, 2));
      return run_end_encoded(children[0]->type(), children[1]->type());
    case TypeId::kMap: {
      RETURN_NOT_OK(ExpectChildren(field, 1));
      const FieldDesc& entries = field.children[0];
      if (entries.type.id != TypeId::kStruct || entries.dictionary) {
        return ConvertError("map field '" + field.name + "' entries are not a struct");
      }
      RETURN_NOT_OK(ExpectChildren(entries, 2));
      const auto& kv = children[0]->type()->fields();
      return map(kv[0], kv[1], t.keys_sorted, entries.name);
    }
    case TypeId::kUnion: {
      if (t.union_type_ids.size() != children.size()) return ConvertError("union type ids do not match its children");
      std::vector<int8_t> codes;
      for (const int32_t id : t.union_type_ids) {
        if (id < 0 || id > 127) return ConvertError("union type id " + std::to_string(id) + " outside 0..127");
        codes.push_back(static_cast<int8_t>(id));
      }
      return union_(t.union_mode == UnionMode::kSparse ? recflow::UnionMode::kSparse : recflow::UnionMode::kDense,
                    std::move(children), std::move(codes));
    }
  }
  return ConvertError("unknown type id");
}

void CollectDictionaries(const FieldDesc& desc, const FieldPtr& field, const std::string& path,
                         std::vector<DictionaryFieldRef>& out) {
  const DataType* type = field->type().get();
  if (desc.dictionary) {
    out.push_back({desc.dictionary->id, path, field});
    type = type->params().value_type.get();
  }
  // The descriptor's children are the (value) type's fields, in order; a map's single child
  // is its entries struct in both.
  for (size_t i = 0; i < desc.children.size() && i < type->fields().size(); ++i) {
    const FieldPtr& child = type->fields()[i];
    CollectDictionaries(desc.children[i], child, path + "." + child->name(), out);
  }
}

}  // namespace

Result<DataTypePtr> ConvertFieldType(const FieldDesc& field) {
  ASSIGN_OR_RETURN(DataTypePtr values, ConvertValueType(field));
  if (!field.dictionary) return values;
  FieldDesc index_field;
  index_field.type = field.dictionary->index_type;
  ASSIGN_OR_RETURN(DataTypePtr index, ConvertValueType(index_field));
  if (!index->is_integer()) {
    return ConvertError("dictionary index type of field '" + field.name + "' is " + index->ToString());
  }
  return dictionary(std::move(index), std::move(values), field.dictionary->ordered);
}

Result<FieldPtr> ConvertField(const FieldDesc& field) {
  ASSIGN_OR_RETURN(DataTypePtr type, ConvertFieldType(field));
  return Field::Make(field.name, std::move(type), field.nullable, ToMetadata(field.metadata));
}

Result<ConvertedSchema> ConvertSchema(const SchemaDesc& schema) {
  ConvertedSchema out;
  std::vector<FieldPtr> fields;
  for (const FieldDesc& desc : schema.fields) {
    ASSIGN_OR_RETURN(FieldPtr field, ConvertField(desc));
    CollectDictionaries(desc, field, field->name(), out.dictionary_fields);
    fields.push_back(std::move(field));
  }
  for (const DictionaryFieldRef& ref : out.dictionary_fields) {
    const DataTypePtr& values = ref.field->type()->params().value_type;
    auto [it, inserted] = out.dictionary_value_types.emplace(ref.id, values);
    if (!inserted && !it->second->Equals(*values)) {
      return ConvertError("dictionary id " + std::to_string(ref.id) + " is used by fields of types " +
                          it->second->ToString() + " and " + values->ToString());
    }
  }
  out.schema = Schema::Make(std::move(fields), ToMetadata(schema.metadata));
  return out;
}

}  // namespace recflow::arrow_ipc
