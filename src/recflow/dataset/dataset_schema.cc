// DatasetSchema: building, writing (JsonWriter), parsing (simdjson DOM) and merging the schema file of a dataset.
#include "recflow/dataset/dataset_schema.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <set>

#include "recflow/columnar/utf8.h"
#include "recflow/dataset/name_list_internal.h"
#include "recflow/formats/jsonl/json_writer.h"

namespace recflow::dataset {

namespace {

constexpr int64_t kFormatVersion = 1;
constexpr std::string_view kVersionKey = "recflow_dataset_schema";
constexpr int64_t kMaxSchemaFileBytes = int64_t{16} << 20;

/// The recorded type of a partition column: a dictionary's value type.
const DataType& PartitionValueType(const DataType& type) {
  return type.id() == TypeId::kDictionary ? *type.value_type() : type;
}

Result<RecordedField> ParseField(simdjson::dom::element element, size_t index) {
  const std::string where = "field " + std::to_string(index);
  simdjson::dom::object object;
  if (element.get_object().get(object)) return Status::DataError(where + " is not an object");
  RecordedField field;
  bool has_name = false, has_type = false, has_nullable = false;
  for (auto [key, value] : object) {
    std::string_view text;
    if (key == "name" && !value.get_string().get(text)) {
      field.name = std::string(text);
      has_name = true;
    } else if (key == "type" && !value.get_string().get(text)) {
      field.type = std::string(text);
      has_type = true;
    } else if (key == "nullable" && !value.get_bool().get(field.nullable)) {
      has_nullable = true;
    } else {
      return Status::DataError(where + ": unexpected member '" + std::string(key) +
                               "' (name and type strings, nullable a bool)");
    }
  }
  if (!has_name || !has_type || !has_nullable || field.name.empty() || field.type.empty()) {
    return Status::DataError(where + " needs a non-empty name and type and a nullable flag");
  }
  return field;
}

Result<DatasetSchema> ParseRoot(simdjson::dom::element root) {
  simdjson::dom::object object;
  if (root.get_object().get(object)) return Status::DataError("not a JSON object");
  DatasetSchema schema;
  int64_t version = 0;
  bool has_fields = false, has_partitions = false;
  for (auto [key, value] : object) {
    simdjson::dom::array array;
    if (key == kVersionKey) {
      if (value.get_int64().get(version) || version != kFormatVersion) {
        return Status::DataError("unsupported schema file version (recflow reads version 1)");
      }
    } else if (key == "fields" && !value.get_array().get(array)) {
      has_fields = true;
      size_t index = 0;
      for (simdjson::dom::element element : array) {
        ASSIGN_OR_RETURN(RecordedField field, ParseField(element, index++));
        schema.fields.push_back(std::move(field));
      }
    } else if (key == "partition_by" && !value.get_array().get(array)) {
      has_partitions = true;
      for (simdjson::dom::element element : array) {
        std::string_view name;
        if (element.get_string().get(name)) return Status::DataError("partition_by holds a non-string");
        schema.partition_by.emplace_back(name);
      }
    } else {
      return Status::DataError("unexpected member '" + std::string(key) + "' (" + std::string(kVersionKey) +
                               ", fields, partition_by)");
    }
  }
  if (version != kFormatVersion || !has_fields || !has_partitions) {
    return Status::DataError("a schema file needs " + std::string(kVersionKey) + ", fields and partition_by");
  }
  std::set<std::string> names;
  for (const RecordedField& field : schema.fields) {
    if (!names.insert(field.name).second) return Status::DataError("column '" + field.name + "' appears twice");
  }
  std::set<std::string> partitions;
  for (const std::string& name : schema.partition_by) {
    if (!names.contains(name)) return Status::DataError("partition column '" + name + "' is not a column");
    if (!partitions.insert(name).second) return Status::DataError("partition column '" + name + "' appears twice");
  }
  return schema;
}

}  // namespace

std::string RecordedName(std::string_view name) {
  if (IsValidUtf8(name)) return std::string(name);
  std::string latin1;
  for (unsigned char c : name) {
    if (c < 0x80) {
      latin1.push_back(static_cast<char>(c));
    } else {
      latin1.push_back(static_cast<char>(0xC0 | (c >> 6)));
      latin1.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
  }
  return latin1;
}

DatasetSchema DatasetSchema::Of(const Schema& schema, const std::vector<std::string>& partition_by) {
  DatasetSchema recorded;
  for (const std::string& name : partition_by) recorded.partition_by.push_back(RecordedName(name));
  for (const FieldPtr& field : schema.fields()) {
    const bool partition = std::find(partition_by.begin(), partition_by.end(), field->name()) != partition_by.end();
    const DataType& type = partition ? PartitionValueType(*field->type()) : *field->type();
    recorded.fields.push_back({RecordedName(field->name()), type.ToString(), field->nullable()});
  }
  return recorded;
}

Result<DatasetSchema> DatasetSchema::FromJson(std::string_view json, const std::string& path) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(json);
  simdjson::dom::element root;
  if (auto error = parser.parse(padded).get(root)) {
    return Status::DataError(std::string("not JSON: ") + simdjson::error_message(error)).WithFile(path);
  }
  Result<DatasetSchema> schema = ParseRoot(root);
  if (!schema.ok()) return schema.status().WithFile(path);
  return schema;
}

std::string DatasetSchema::ToJson() const {
  std::string text;
  jsonl::JsonWriter w(&text);
  w.BeginObject();
  w.Key(kVersionKey);
  w.Int(kFormatVersion);
  w.Key("partition_by");
  w.BeginArray();
  for (const std::string& name : partition_by) w.String(name);
  w.EndArray();
  w.Key("fields");
  w.BeginArray();
  for (const RecordedField& field : fields) {
    w.BeginObject();
    w.Key("name");
    w.String(field.name);
    w.Key("type");
    w.String(field.type);
    w.Key("nullable");
    w.Bool(field.nullable);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  text.push_back('\n');
  return text;
}

Result<SchemaPtr> DatasetSchema::PartitionSchema(const std::string& path) const {
  std::vector<FieldPtr> result;
  for (const std::string& name : partition_by) {
    for (const RecordedField& field : fields) {
      if (field.name != name) continue;
      DataTypePtr type = ScalarTypeFromName(field.type);
      if (type == nullptr || type->id() == TypeId::kBinary) {
        return Status::DataError("partition column '" + name + "' has type '" + field.type +
                                 "', which no partition directory holds")
            .WithFile(path);
      }
      result.push_back(Field::Make(name, std::move(type), field.nullable));
    }
  }
  return Schema::Make(std::move(result));
}

Result<DatasetSchema> DatasetSchema::Merge(const DatasetSchema& job, const std::string& output) const {
  const std::string intro = "the rows do not match the dataset in '" + output + "' (its " + std::string(kSchemaFileName) + "): ";
  if (partition_by != job.partition_by) {
    return Status::DataError(intro + "it is partitioned by " + internal::NameList(partition_by) + ", the rows by " +
                             internal::NameList(job.partition_by));
  }
  const auto describe = [](const std::vector<RecordedField>& fields) {
    std::string text;
    for (const RecordedField& f : fields) text += (text.empty() ? "" : ", ") + f.name + ": " + f.type;
    return "(" + text + ")";
  };
  if (fields.size() != job.fields.size()) {
    return Status::DataError(intro + "it has columns " + describe(fields) + ", the rows " + describe(job.fields));
  }
  DatasetSchema merged = *this;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name != job.fields[i].name || fields[i].type != job.fields[i].type) {
      return Status::DataError(intro + "its column " + std::to_string(i) + " is '" + fields[i].name + "' of type " +
                               fields[i].type + ", the rows' is '" + job.fields[i].name + "' of type " +
                               job.fields[i].type);
    }
    merged.fields[i].nullable = fields[i].nullable || job.fields[i].nullable;
  }
  return merged;
}

Result<std::optional<DatasetSchema>> ReadDatasetSchema(FileSystem& fs, const std::string& dir) {
  const std::string path = dir + "/" + std::string(kSchemaFileName);
  ASSIGN_OR_RETURN(const FileInfo info, fs.GetTargetInfo(path));  // a symlinked schema file is followed
  if (!info.exists()) return std::optional<DatasetSchema>();
  if (info.type != FileType::kFile || info.size > kMaxSchemaFileBytes) {
    return Status::DataError("not a regular file of at most 16 MiB").WithFile(path);
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> bytes, fs.ReadWholeFile(path));
  ASSIGN_OR_RETURN(DatasetSchema schema,
                   DatasetSchema::FromJson(std::string_view(reinterpret_cast<const char*>(bytes->data()),
                                                            static_cast<size_t>(bytes->size())),
                                           path));
  return std::optional<DatasetSchema>(std::move(schema));
}

}  // namespace recflow::dataset
