// ParseSchemaJson: simdjson DOM walk over a small schema document.
#include "recflow/formats/schema_json.h"

#include <simdjson.h>

#include <set>

namespace recflow {

namespace {

Result<DataTypePtr> ParseType(std::string_view text, bool* timestamp) {
  if (text.starts_with("list<") && text.ends_with(">")) {
    bool inner_timestamp = false;
    ASSIGN_OR_RETURN(DataTypePtr item, ParseType(text.substr(5, text.size() - 6), &inner_timestamp));
    if (inner_timestamp) return Status::DataError("list<timestamp> is not supported");
    return list(std::move(item));
  }
  *timestamp = false;
  if (DataTypePtr scalar = ScalarTypeFromName(text)) return scalar;
  if (text == "timestamp") {
    *timestamp = true;
    return int64();
  }
  return Status::DataError("unknown type '" + std::string(text) +
                           "' (bool, int8..int64, uint8..uint64, float32, float64, utf8, binary, timestamp, list<T>)");
}

/// The field `name` of the schema-file type `type` (timestamps tagged with their logical type).
Result<FieldPtr> MakeField(std::string_view name, std::string_view type, bool nullable) {
  bool timestamp = false;
  auto parsed = ParseType(type, &timestamp);
  if (!parsed.ok()) return parsed.status().WithField(name);
  std::shared_ptr<const KeyValueMetadata> metadata;
  if (timestamp) {
    metadata = std::make_shared<KeyValueMetadata>(std::vector<std::pair<std::string, std::string>>{
        {std::string(kLogicalTypeKey), std::string(kTimestampLogicalType)}});
  }
  return Field::Make(std::string(name), *parsed, nullable, std::move(metadata));
}

Result<FieldPtr> ParseField(simdjson::dom::element element, size_t index) {
  simdjson::dom::object object;
  if (element.get_object().get(object)) {
    return Status::DataError("field " + std::to_string(index) + " is not an object");
  }
  std::string_view name;
  std::string_view type;
  bool nullable = true;
  for (auto [key, value] : object) {
    if (key == "name") {
      if (value.get_string().get(name)) return Status::DataError("field " + std::to_string(index) + ": name is not a string");
    } else if (key == "type") {
      if (value.get_string().get(type)) return Status::DataError("field " + std::to_string(index) + ": type is not a string");
    } else if (key == "nullable") {
      if (value.get_bool().get(nullable)) return Status::DataError("field " + std::to_string(index) + ": nullable is not a bool");
    } else {
      return Status::DataError("field " + std::to_string(index) + ": unknown key '" + std::string(key) +
                               "' (name, type, nullable)");
    }
  }
  if (name.empty()) return Status::DataError("field " + std::to_string(index) + " has no name");
  if (type.empty()) return Status::DataError("field '" + std::string(name) + "' has no type");
  return MakeField(name, type, nullable);
}

}  // namespace

Result<SchemaPtr> ParseSchemaJson(std::string_view json, const std::string& name) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(json);
  simdjson::dom::element root;
  if (auto error = parser.parse(padded).get(root)) {
    return Status::DataError(std::string("not JSON: ") + simdjson::error_message(error)).WithFile(name);
  }
  simdjson::dom::array fields;
  simdjson::dom::object object;
  if (!root.get_object().get(object)) {
    for (auto [key, value] : object) {
      if (key != "fields") return Status::DataError("unknown key '" + std::string(key) + "' (fields)").WithFile(name);
    }
    if (object["fields"].get_array().get(fields)) return Status::DataError("no \"fields\" array").WithFile(name);
  } else if (root.get_array().get(fields)) {
    return Status::DataError("a schema is an object with \"fields\" or an array of fields").WithFile(name);
  }
  std::vector<FieldPtr> out;
  std::set<std::string, std::less<>> names;
  size_t index = 0;
  for (simdjson::dom::element f : fields) {
    auto field = ParseField(f, index++);
    if (!field.ok()) return field.status().WithFile(name);
    if (!names.insert((*field)->name()).second) {
      return Status::DataError("column '" + (*field)->name() + "' is defined twice").WithFile(name);
    }
    out.push_back(std::move(field).ValueUnsafe());
  }
  if (out.empty()) return Status::DataError("the schema has no fields").WithFile(name);
  return Schema::Make(std::move(out));
}

Result<SchemaPtr> ReadSchemaFile(const std::string& path, FileSystem& fs) {
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> data, fs.ReadWholeFile(path));
  return ParseSchemaJson(std::string_view(reinterpret_cast<const char*>(data->data()), static_cast<size_t>(data->size())),
                         path);
}

Result<SchemaPtr> ParseSchemaHints(const std::vector<std::string>& hints) {
  std::vector<FieldPtr> fields;
  std::set<std::string, std::less<>> names;
  for (const std::string& hint : hints) {
    const size_t colon = hint.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == hint.size()) {
      return Status::InvalidArgument("schema hint '" + hint + "': expected NAME:TYPE (e.g. trip_seconds:float32)");
    }
    auto field = MakeField(std::string_view(hint).substr(0, colon), std::string_view(hint).substr(colon + 1), true);
    if (!field.ok()) return Status::InvalidArgument("schema hint '" + hint + "': " + field.status().message());
    if (!names.insert((*field)->name()).second) {
      return Status::InvalidArgument("schema hint '" + hint + "': column '" + (*field)->name() + "' is hinted twice");
    }
    fields.push_back(std::move(field).ValueUnsafe());
  }
  return Schema::Make(std::move(fields));
}

Result<SchemaPtr> ApplySchemaHints(const SchemaPtr& inferred, const SchemaPtr& hints, const std::string& input) {
  if (hints == nullptr || hints->num_fields() == 0) return inferred;
  std::vector<FieldPtr> fields = inferred->fields();
  for (const FieldPtr& hint : hints->fields()) {
    const int index = inferred->GetFieldIndex(hint->name());
    if (index < 0) {
      return Status::InvalidArgument("schema hint for '" + hint->name() + "': no such column in " + input + " (" +
                                     inferred->ToString() + ")");
    }
    const FieldPtr& old = fields[static_cast<size_t>(index)];
    fields[static_cast<size_t>(index)] = Field::Make(old->name(), hint->type(), old->nullable(), hint->metadata());
  }
  return Schema::Make(std::move(fields), inferred->metadata());
}

}  // namespace recflow
