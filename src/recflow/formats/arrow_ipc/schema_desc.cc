// ReadSchema: Schema flatbuffer → SchemaDesc, checking every enum value, parameter and child count.
#include "recflow/formats/arrow_ipc/schema_desc.h"

#include <string>

#include "recflow/formats/arrow_ipc/schema_desc_internal.h"

namespace recflow::arrow_ipc {
namespace {

using Str = std::string;

template <typename E>
bool InRange(E value, E last) {
  const auto v = static_cast<int64_t>(value);
  return v >= 0 && v <= static_cast<int64_t>(last);
}

KeyValueMetadata ConvertMetadata(const flatbuffers::Vector<flatbuffers::Offset<fb::KeyValue>>* entries) {
  KeyValueMetadata out;
  if (entries == nullptr) return out;
  out.reserve(entries->size());
  for (const fb::KeyValue* kv : *entries) {
    if (kv == nullptr) continue;
    out.emplace_back(kv->key() ? kv->key()->str() : Str(), kv->value() ? kv->value()->str() : Str());
  }
  return out;
}

Result<TypeDesc> ConvertInt(const fb::Int* t, const ErrorSite& site) {
  TypeDesc out;
  out.id = TypeId::kInt;
  out.bit_width = t->bitWidth();
  out.is_signed = t->is_signed();
  if (out.bit_width != 8 && out.bit_width != 16 && out.bit_width != 32 && out.bit_width != 64) {
    return site.Error("int bit width " + std::to_string(out.bit_width) + " is not 8, 16, 32 or 64");
  }
  return out;
}

Result<TypeDesc> ConvertDecimal(const fb::Decimal* t, const ErrorSite& site) {
  TypeDesc out;
  out.id = TypeId::kDecimal;
  out.bit_width = t->bitWidth();
  out.decimal_precision = t->precision();
  out.decimal_scale = t->scale();
  int32_t max_precision = 0;  // the most digits each width holds
  switch (out.bit_width) {
    case 32: max_precision = 9; break;
    case 64: max_precision = 18; break;
    case 128: max_precision = 38; break;
    case 256: max_precision = 76; break;
    default: return site.Error("decimal bit width " + std::to_string(out.bit_width) + " is not 32, 64, 128 or 256");
  }
  if (out.decimal_precision < 1 || out.decimal_precision > max_precision) {
    return site.Error("decimal precision " + std::to_string(out.decimal_precision) + " is out of range");
  }
  return out;
}

Result<TypeDesc> ConvertTime(const fb::Time* t, const ErrorSite& site) {
  TypeDesc out;
  out.id = TypeId::kTime;
  if (!InRange(t->unit(), fb::TimeUnit::NANOSECOND)) return site.Error("unknown time unit");
  out.time_unit = static_cast<TimeUnit>(t->unit());
  out.bit_width = t->bitWidth();
  const bool coarse = out.time_unit == TimeUnit::kSecond || out.time_unit == TimeUnit::kMillisecond;
  if (out.bit_width != (coarse ? 32 : 64)) {
    return site.Error("time bit width " + std::to_string(out.bit_width) + " does not fit its unit");
  }
  return out;
}

Result<TypeDesc> ConvertUnion(const fb::Union* t, int num_children, const ErrorSite& site) {
  TypeDesc out;
  out.id = TypeId::kUnion;
  if (!InRange(t->mode(), fb::UnionMode::Dense)) return site.Error("unknown union mode");
  out.union_mode = static_cast<UnionMode>(t->mode());
  if (num_children > 128) return site.Error("union has more than 128 children");
  if (t->typeIds() == nullptr) {
    for (int i = 0; i < num_children; ++i) out.union_type_ids.push_back(i);
    return out;
  }
  if (static_cast<int64_t>(t->typeIds()->size()) != num_children) {
    return site.Error("union has " + std::to_string(t->typeIds()->size()) + " type ids for " +
                      std::to_string(num_children) + " children");
  }
  for (const int32_t id : *t->typeIds()) {
    if (id < 0 || id > 127) return site.Error("union type id " + std::to_string(id) + " is out of range");
    for (const int32_t seen : out.union_type_ids) {
      if (seen == id) return site.Error("union type id " + std::to_string(id) + " is repeated");
    }
    out.union_type_ids.push_back(id);
  }
  return out;
}

Result<TypeDesc> ConvertType(const fb::Field* field, int num_children, const ErrorSite& site) {
  TypeDesc out;
  const fb::Type type = field->type_type();
  if (type != fb::Type::NONE && field->type() == nullptr) return site.Error("field type table is missing");
  switch (type) {
    case fb::Type::Null: out.id = TypeId::kNull; return out;
    case fb::Type::Bool: out.id = TypeId::kBool; return out;
    case fb::Type::Int: return ConvertInt(field->type_as_Int(), site);
    case fb::Type::FloatingPoint: {
      const auto precision = field->type_as_FloatingPoint()->precision();
      if (!InRange(precision, fb::Precision::DOUBLE)) return site.Error("unknown floating point precision");
      out.id = TypeId::kFloatingPoint;
      out.precision = static_cast<FloatPrecision>(precision);
      return out;
    }
    case fb::Type::Decimal: return ConvertDecimal(field->type_as_Decimal(), site);
    case fb::Type::Date: {
      const auto unit = field->type_as_Date()->unit();
      if (!InRange(unit, fb::DateUnit::MILLISECOND)) return site.Error("unknown date unit");
      out.id = TypeId::kDate;
      out.date_unit = static_cast<DateUnit>(unit);
      return out;
    }
    case fb::Type::Time: return ConvertTime(field->type_as_Time(), site);
    case fb::Type::Timestamp: {
      const fb::Timestamp* t = field->type_as_Timestamp();
      if (!InRange(t->unit(), fb::TimeUnit::NANOSECOND)) return site.Error("unknown timestamp unit");
      out.id = TypeId::kTimestamp;
      out.time_unit = static_cast<TimeUnit>(t->unit());
      if (t->timezone() != nullptr) out.timezone = t->timezone()->str();
      return out;
    }
    case fb::Type::Duration: {
      const auto unit = field->type_as_Duration()->unit();
      if (!InRange(unit, fb::TimeUnit::NANOSECOND)) return site.Error("unknown duration unit");
      out.id = TypeId::kDuration;
      out.time_unit = static_cast<TimeUnit>(unit);
      return out;
    }
    case fb::Type::Interval: {
      const auto unit = field->type_as_Interval()->unit();
      if (!InRange(unit, fb::IntervalUnit::MONTH_DAY_NANO)) return site.Error("unknown interval unit");
      out.id = TypeId::kInterval;
      out.interval_unit = static_cast<IntervalUnit>(unit);
      return out;
    }
    case fb::Type::Binary: out.id = TypeId::kBinary; return out;
    case fb::Type::Utf8: out.id = TypeId::kUtf8; return out;
    case fb::Type::LargeBinary: out.id = TypeId::kLargeBinary; return out;
    case fb::Type::LargeUtf8: out.id = TypeId::kLargeUtf8; return out;
    case fb::Type::FixedSizeBinary:
      out.id = TypeId::kFixedSizeBinary;
      out.byte_width = field->type_as_FixedSizeBinary()->byteWidth();
      if (out.byte_width < 0) return site.Error("negative fixed-size binary width");
      return out;
    case fb::Type::List: out.id = TypeId::kList; return out;
    case fb::Type::LargeList: out.id = TypeId::kLargeList; return out;
    case fb::Type::FixedSizeList:
      out.id = TypeId::kFixedSizeList;
      out.list_size = field->type_as_FixedSizeList()->listSize();
      if (out.list_size < 0) return site.Error("negative fixed-size list size");
      return out;
    case fb::Type::Struct_: out.id = TypeId::kStruct; return out;
    case fb::Type::Map:
      out.id = TypeId::kMap;
      out.keys_sorted = field->type_as_Map()->keysSorted();
      return out;
    case fb::Type::Union: return ConvertUnion(field->type_as_Union(), num_children, site);
    case fb::Type::RunEndEncoded: out.id = TypeId::kRunEndEncoded; return out;
    case fb::Type::BinaryView: out.id = TypeId::kBinaryView; return out;
    case fb::Type::Utf8View: out.id = TypeId::kUtf8View; return out;
    case fb::Type::ListView: out.id = TypeId::kListView; return out;
    case fb::Type::LargeListView: out.id = TypeId::kLargeListView; return out;
    case fb::Type::NONE: return site.Error("field has no type");
  }
  return site.Error("unknown type id " + std::to_string(static_cast<int>(type)));
}

// Child counts each nested type requires; leaves take none.
Status CheckChildren(const FieldDesc& field, const ErrorSite& site) {
  const size_t n = field.children.size();
  const auto bad = [&](const Str& want) {
    return site.Error("field '" + field.name + "' of type " + Str(TypeIdName(field.type.id)) + " has " +
                      std::to_string(n) + " children, expected " + want);
  };
  switch (field.type.id) {
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList:
    case TypeId::kListView:
    case TypeId::kLargeListView:
      return n == 1 ? Status::OK() : bad("1");
    case TypeId::kRunEndEncoded: {
      if (n != 2) return bad("2");
      const FieldDesc& run_ends = field.children[0];
      const int width = run_ends.type.bit_width;
      if (run_ends.type.id != TypeId::kInt || !run_ends.type.is_signed || width < 16 || run_ends.dictionary) {
        return site.Error("run-end encoded field '" + field.name + "' has run ends of type " +
                          TypeToString(run_ends.type) + ", not int16, int32 or int64");
      }
      return Status::OK();
    }
    case TypeId::kMap: {
      if (n != 1) return bad("1");
      const FieldDesc& entries = field.children[0];
      if (entries.type.id != TypeId::kStruct || entries.children.size() != 2 || entries.dictionary) {
        return site.Error("map field '" + field.name + "' does not hold a struct of key and value");
      }
      return Status::OK();
    }
    case TypeId::kStruct:
    case TypeId::kUnion:
      return Status::OK();
    default:
      return n == 0 ? Status::OK() : bad("0");
  }
}

Result<FieldDesc> ConvertField(const fb::Field* field, int depth, const ErrorSite& site) {
  if (field == nullptr) return site.Error("null field");
  if (depth > kMaxFieldDepth) return site.Error("fields nest deeper than " + std::to_string(kMaxFieldDepth));
  FieldDesc out;
  if (field->name() != nullptr) out.name = field->name()->str();
  out.nullable = field->nullable();
  const auto* children = field->children();
  const int num_children = children == nullptr ? 0 : static_cast<int>(children->size());
  ASSIGN_OR_RETURN(out.type, ConvertType(field, num_children, site));
  if (children != nullptr) {
    out.children.reserve(children->size());
    for (const fb::Field* child : *children) {
      ASSIGN_OR_RETURN(FieldDesc converted, ConvertField(child, depth + 1, site));
      out.children.push_back(std::move(converted));
    }
  }
  RETURN_NOT_OK(CheckChildren(out, site));
  if (const fb::DictionaryEncoding* dict = field->dictionary()) {
    DictionaryDesc desc;
    desc.id = dict->id();
    desc.ordered = dict->isOrdered();
    if (!InRange(dict->dictionaryKind(), fb::DictionaryKind::DenseArray)) {
      return site.Error("unknown dictionary kind");
    }
    if (dict->indexType() == nullptr) {
      desc.index_type.id = TypeId::kInt;
      desc.index_type.bit_width = 32;
      desc.index_type.is_signed = true;
    } else {
      ASSIGN_OR_RETURN(desc.index_type, ConvertInt(dict->indexType(), site));
    }
    out.dictionary = std::move(desc);
  }
  out.metadata = ConvertMetadata(field->custom_metadata());
  return out;
}

}  // namespace

Result<SchemaDesc> SchemaFromFlatbuffer(const fb::Schema* schema, const ErrorSite& site) {
  if (schema == nullptr) return site.Error("schema is missing");
  SchemaDesc out;
  if (!InRange(schema->endianness(), fb::Endianness::Big)) return site.Error("unknown endianness");
  out.endianness = static_cast<Endianness>(schema->endianness());
  if (schema->fields() != nullptr) {
    out.fields.reserve(schema->fields()->size());
    for (const fb::Field* field : *schema->fields()) {
      ASSIGN_OR_RETURN(FieldDesc converted, ConvertField(field, 1, site));
      out.fields.push_back(std::move(converted));
    }
  }
  out.metadata = ConvertMetadata(schema->custom_metadata());
  if (schema->features() != nullptr) {
    for (const auto feature : *schema->features()) out.features.push_back(static_cast<int64_t>(feature));
  }
  return out;
}

Result<SchemaDesc> ReadSchema(const Message& message) {
  const ErrorSite site{message.source_name, message.offset};
  if (message.type != MessageType::kSchema) {
    return site.Error(Str("expected a schema message, found a ") + Str(MessageTypeName(message.type)));
  }
  return SchemaFromFlatbuffer(FlatbufMessage(message)->header_as_Schema(), site);
}

}  // namespace recflow::arrow_ipc
