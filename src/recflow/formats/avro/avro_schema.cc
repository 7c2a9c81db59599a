// ParseAvroSchema: Avro schema JSON → AvroNode tree with simdjson (error-code API), resolving names.
#include "recflow/formats/avro/avro_schema_internal.h"

#include <simdjson.h>

#include <map>
#include <set>
#include <utility>

#include "recflow/formats/avro/framing.h"

namespace recflow::avro {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

Status SchemaError(const std::string& message) { return Status::DataError("avro schema: " + message); }

bool PrimitiveType(std::string_view name, AvroType* out) {
  static const std::pair<std::string_view, AvroType> kPrimitives[] = {
      {"null", AvroType::kNull},   {"boolean", AvroType::kBoolean}, {"int", AvroType::kInt},
      {"long", AvroType::kLong},   {"float", AvroType::kFloat},     {"double", AvroType::kDouble},
      {"bytes", AvroType::kBytes}, {"string", AvroType::kString},
  };
  for (const auto& [n, t] : kPrimitives) {
    if (n == name) {
      *out = t;
      return true;
    }
  }
  return false;
}

// An optional string attribute; absent gives "" and ok.
Status OptionalString(const object& obj, std::string_view key, std::string* out) {
  element value;
  if (obj[key].get(value) != simdjson::SUCCESS) return Status::OK();
  std::string_view s;
  if (value.get_string().get(s) != simdjson::SUCCESS) return SchemaError(std::string(key) + " must be a string");
  *out = std::string(s);
  return Status::OK();
}

// Sets the logical type when the "logicalType" attribute names one recflow maps and it is valid
// for the node's physical type; anything else is ignored.
void ApplyLogicalType(const object& obj, AvroNode* node) {
  std::string_view logical;
  if (obj["logicalType"].get_string().get(logical) != simdjson::SUCCESS) return;
  if (logical == "date" && node->type == AvroType::kInt) {
    node->logical_type = LogicalType::kDate;
  } else if (logical == "timestamp-millis" && node->type == AvroType::kLong) {
    node->logical_type = LogicalType::kTimestampMillis;
  } else if (logical == "timestamp-micros" && node->type == AvroType::kLong) {
    node->logical_type = LogicalType::kTimestampMicros;
  } else if (logical == "decimal" && (node->type == AvroType::kBytes || node->type == AvroType::kFixed)) {
    int64_t precision = 0, scale = 0;
    if (obj["precision"].get_int64().get(precision) != simdjson::SUCCESS) return;
    if (obj["scale"].get_int64().get(scale) != simdjson::SUCCESS) scale = 0;
    if (precision < 1 || precision > 1000 || scale < 0 || scale > precision) return;
    node->logical_type = LogicalType::kDecimal;
    node->precision = static_cast<int>(precision);
    node->scale = static_cast<int>(scale);
  }
}

class SchemaParser {
 public:
  Result<AvroNodePtr> Parse(const element& json, const std::string& ns, int depth) {
    if (depth > kMaxSchemaDepth) {
      return Status::TypeError("avro schema nests deeper than " + std::to_string(kMaxSchemaDepth) + " levels");
    }
    std::string_view name;
    if (json.get_string().get(name) == simdjson::SUCCESS) return ParseName(name, ns);
    array branches;
    if (json.get_array().get(branches) == simdjson::SUCCESS) return ParseUnion(branches, ns, depth);
    object obj;
    if (json.get_object().get(obj) == simdjson::SUCCESS) return ParseObject(obj, ns, depth);
    return SchemaError("a type must be a name, a JSON object or a JSON array (union)");
  }

 private:
  Result<AvroNodePtr> ParseName(std::string_view name, const std::string& ns) {
    auto node = std::make_shared<AvroNode>();
    if (PrimitiveType(name, &node->type)) return AvroNodePtr(node);
    const std::string full = name.find('.') != std::string_view::npos || ns.empty()
                                 ? std::string(name)
                                 : ns + "." + std::string(name);
    for (const std::string& candidate : {full, std::string(name)}) {
      if (in_progress_.count(candidate) > 0) {
        return Status::TypeError("recursive avro type '" + candidate + "' cannot be a column");
      }
      auto it = defined_.find(candidate);
      if (it != defined_.end()) return it->second;
    }
    return SchemaError("unknown type '" + std::string(name) + "'");
  }

  Result<AvroNodePtr> ParseUnion(const array& branches, const std::string& ns, int depth) {
    auto node = std::make_shared<AvroNode>();
    node->type = AvroType::kUnion;
    for (element branch : branches) {
      ASSIGN_OR_RETURN(auto parsed, Parse(branch, ns, depth + 1));
      if (parsed->type == AvroType::kUnion) return SchemaError("a union may not contain a union");
      node->branches.push_back(std::move(parsed));
    }
    if (node->branches.empty()) return SchemaError("a union needs at least one branch");
    return AvroNodePtr(node);
  }

  Result<AvroNodePtr> ParseObject(const object& obj, const std::string& ns, int depth) {
    element type_json;
    if (obj["type"].get(type_json) != simdjson::SUCCESS) return SchemaError("a type object without 'type'");
    std::string_view type;
    if (type_json.get_string().get(type) != simdjson::SUCCESS) return Parse(type_json, ns, depth + 1);
    auto node = std::make_shared<AvroNode>();
    if (PrimitiveType(type, &node->type)) {
      ApplyLogicalType(obj, node.get());
      return AvroNodePtr(node);
    }
    if (type == "array" || type == "map") {
      node->type = type == "array" ? AvroType::kArray : AvroType::kMap;
      element items;
      if (obj[type == "array" ? "items" : "values"].get(items) != simdjson::SUCCESS) {
        return SchemaError(std::string(type) + " without " + (type == "array" ? "'items'" : "'values'"));
      }
      ASSIGN_OR_RETURN(node->items, Parse(items, ns, depth + 1));
      return AvroNodePtr(node);
    }
    if (type == "record" || type == "error") {
      node->type = AvroType::kRecord;
    } else if (type == "enum") {
      node->type = AvroType::kEnum;
    } else if (type == "fixed") {
      node->type = AvroType::kFixed;
    } else {
      return ParseName(type, ns);  // {"type": "SomeNamedType"}
    }
    return ParseNamed(obj, ns, depth, std::move(node));
  }

  Result<AvroNodePtr> ParseNamed(const object& obj, const std::string& ns, int depth, std::shared_ptr<AvroNode> node) {
    std::string name, namespace_attr;
    RETURN_NOT_OK(OptionalString(obj, "name", &name));
    if (name.empty()) return SchemaError("a named type without 'name'");
    std::string inner_ns = ns;
    if (obj["namespace"].error() == simdjson::SUCCESS) {
      RETURN_NOT_OK(OptionalString(obj, "namespace", &namespace_attr));
      inner_ns = namespace_attr;
    }
    const size_t dot = name.rfind('.');
    if (dot != std::string::npos) {
      node->full_name = name;
      inner_ns = name.substr(0, dot);
    } else {
      node->full_name = inner_ns.empty() ? name : inner_ns + "." + name;
    }
    if (defined_.count(node->full_name) > 0 || in_progress_.count(node->full_name) > 0) {
      return SchemaError("type '" + node->full_name + "' is defined twice");
    }
    if (node->type == AvroType::kRecord) {
      RETURN_NOT_OK(ParseFields(obj, inner_ns, depth, node.get()));
    } else if (node->type == AvroType::kEnum) {
      RETURN_NOT_OK(ParseSymbols(obj, node.get()));
    } else {
      if (obj["size"].get_int64().get(node->fixed_size) != simdjson::SUCCESS || node->fixed_size < 0) {
        return SchemaError("fixed '" + node->full_name + "' needs a non-negative integer 'size'");
      }
      ApplyLogicalType(obj, node.get());
    }
    defined_[node->full_name] = node;
    return AvroNodePtr(node);
  }

  Status ParseFields(const object& obj, const std::string& ns, int depth, AvroNode* node) {
    array fields;
    if (obj["fields"].get_array().get(fields) != simdjson::SUCCESS) {
      return SchemaError("record '" + node->full_name + "' needs a 'fields' array");
    }
    in_progress_.insert(node->full_name);
    for (element field_json : fields) {
      object field_obj;
      if (field_json.get_object().get(field_obj) != simdjson::SUCCESS) {
        return SchemaError("a field of record '" + node->full_name + "' is not a JSON object");
      }
      AvroField field;
      RETURN_NOT_OK(OptionalString(field_obj, "name", &field.name));
      if (field.name.empty()) return SchemaError("a field of record '" + node->full_name + "' has no name");
      element type;
      if (field_obj["type"].get(type) != simdjson::SUCCESS) {
        return SchemaError("field '" + field.name + "' of record '" + node->full_name + "' has no type");
      }
      auto parsed = Parse(type, ns, depth + 1);
      if (!parsed.ok()) return parsed.status().WithField(field.name);
      field.type = *std::move(parsed);
      node->fields.push_back(std::move(field));
    }
    in_progress_.erase(node->full_name);
    return Status::OK();
  }

  Status ParseSymbols(const object& obj, AvroNode* node) {
    array symbols;
    if (obj["symbols"].get_array().get(symbols) != simdjson::SUCCESS) {
      return SchemaError("enum '" + node->full_name + "' needs a 'symbols' array");
    }
    for (element symbol : symbols) {
      std::string_view s;
      if (symbol.get_string().get(s) != simdjson::SUCCESS) {
        return SchemaError("a symbol of enum '" + node->full_name + "' is not a string");
      }
      node->symbols.emplace_back(s);
    }
    return Status::OK();
  }

  std::map<std::string, AvroNodePtr> defined_;
  std::set<std::string> in_progress_;
};

}  // namespace

Result<AvroNodePtr> ParseAvroSchema(std::string_view json) {
  simdjson::dom::parser parser;
  element root;
  const auto error = parser.parse(json.data(), json.size()).get(root);
  if (error != simdjson::SUCCESS) return SchemaError(std::string("not JSON: ") + simdjson::error_message(error));
  SchemaParser schema_parser;
  return schema_parser.Parse(root, "", 0);
}

}  // namespace recflow::avro
