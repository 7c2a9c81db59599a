// Avro types → recflow columns: primitives, nullable unions, arrays, records, enum, fixed, map, logical types.
#include "recflow/formats/avro/schema_mapping.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "recflow/formats/avro/schema_mapping_internal.h"

namespace recflow::avro {
namespace {

Result<DataTypePtr> TypeFromAvro(const std::string& path, const AvroNode& node) {
  switch (node.type) {
    case AvroType::kNull:
      return null();
    case AvroType::kBoolean:
      return boolean();
    case AvroType::kInt:
      return int32();
    case AvroType::kLong:
      return int64();
    case AvroType::kFloat:
      return float32();
    case AvroType::kDouble:
      return float64();
    case AvroType::kBytes:
    case AvroType::kFixed:
      return node.logical_type == LogicalType::kDecimal ? utf8() : binary();
    case AvroType::kString:
    case AvroType::kEnum:
      return utf8();
    case AvroType::kArray: {
      ASSIGN_OR_RETURN(auto item, FieldFromAvro("item", path + "[]", *node.items));
      return list(std::move(item));
    }
    case AvroType::kMap: {
      ASSIGN_OR_RETURN(auto value, FieldFromAvro("value", path + ".value", *node.items));
      return list(Field::Make("entries", struct_({Field::Make("key", utf8(), false), std::move(value)}), false));
    }
    case AvroType::kRecord: {
      std::vector<FieldPtr> fields;
      for (const AvroField& f : node.fields) {
        ASSIGN_OR_RETURN(auto field, FieldFromAvro(f.name, path + "." + f.name, *f.type));
        fields.push_back(std::move(field));
      }
      return struct_(std::move(fields));
    }
    case AvroType::kUnion:
      break;
  }
  return Status::TypeError("avro union nested in a union").WithField(path);
}

std::shared_ptr<const KeyValueMetadata> LogicalTypeMetadata(const AvroNode& node) {
  std::string value;
  switch (node.logical_type) {
    case LogicalType::kNone:
      return nullptr;
    case LogicalType::kDate:
      value = std::string(kDate32LogicalType);
      break;
    case LogicalType::kTimestampMillis:
    case LogicalType::kTimestampMicros:
      value = std::string(kTimestampLogicalType);
      break;
    case LogicalType::kDecimal:
      value = std::string(kDecimalLogicalTypePrefix) + "(" + std::to_string(node.precision) + ", " +
              std::to_string(node.scale) + ")";
      break;
  }
  return std::make_shared<KeyValueMetadata>(
      std::vector<std::pair<std::string, std::string>>{{std::string(kLogicalTypeKey), std::move(value)}});
}

}  // namespace

Result<UnwrappedNode> Unwrap(const AvroNode& node, const std::string& path) {
  UnwrappedNode out;
  if (node.type != AvroType::kUnion) {
    out.value = &node;
    return out;
  }
  out.num_branches = static_cast<int64_t>(node.branches.size());
  const AvroNode* null_branch = nullptr;
  for (int64_t i = 0; i < out.num_branches; ++i) {
    const AvroNode& branch = *node.branches[static_cast<size_t>(i)];
    if (branch.type == AvroType::kNull) {
      null_branch = &branch;
    } else if (out.value == nullptr) {
      out.value = &branch;
      out.value_branch = i;
    } else {
      return Status::TypeError("avro union of " + std::to_string(out.num_branches) +
                               " types is not supported (only a union of null and one type)")
          .WithField(path);
    }
  }
  out.nullable = null_branch != nullptr;
  if (out.value == nullptr) out.value = null_branch;
  return out;
}

Result<FieldPtr> FieldFromAvro(const std::string& leaf, const std::string& path, const AvroNode& node) {
  ASSIGN_OR_RETURN(auto unwrapped, Unwrap(node, path));
  ASSIGN_OR_RETURN(auto type, TypeFromAvro(path, *unwrapped.value));
  const bool nullable = unwrapped.nullable || type->id() == TypeId::kNull;
  return Field::Make(leaf, std::move(type), nullable, LogicalTypeMetadata(*unwrapped.value));
}

Result<SchemaPtr> SchemaFromAvro(const AvroNode& node, std::string_view json) {
  if (node.type != AvroType::kRecord) {
    return Status::TypeError("the avro top-level type must be a record");
  }
  std::vector<FieldPtr> fields;
  for (const AvroField& f : node.fields) {
    ASSIGN_OR_RETURN(auto field, FieldFromAvro(f.name, f.name, *f.type));
    fields.push_back(std::move(field));
  }
  auto metadata = std::make_shared<KeyValueMetadata>(
      std::vector<std::pair<std::string, std::string>>{{std::string(kAvroSchemaKey), std::string(json)}});
  return Schema::Make(std::move(fields), std::move(metadata));
}

Result<SchemaPtr> SchemaFromAvroJson(std::string_view json) {
  auto node = ParseAvroSchema(json);
  if (!node.ok()) {
    if (node.status().code() != StatusCode::kDataError) return node.status();
    return Status::InvalidArgument(node.status().message());
  }
  return SchemaFromAvro(**node, json);
}

}  // namespace recflow::avro
