// DetectInputs: expansion, partition discovery and one format detection per input (the registry's Detect).
#include "recflow/dataset/dataset_factory.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "recflow/dataset/dataset_schema.h"
#include "recflow/dataset/inputs.h"
#include "recflow/formats/builtin/builtin_formats.h"
#include "recflow/ops/columns/type_name.h"

namespace recflow::dataset {

namespace {

/// What `path` names on `fs` (a symlink followed); "-" and errors are kNotFound.
FileInfo InfoOf(FileSystem& fs, const std::string& path) {
  if (path == "-") return FileInfo();
  Result<FileInfo> info = fs.GetTargetInfo(path);
  return info.ok() ? *info : FileInfo();
}

/// The rows of dataset directory `dir` as its schema file records them, in the order reading
/// its files gives: the data columns, then the partition columns (`partition_schema`, as
/// discovered). nullptr when it has no schema file.
Result<SchemaPtr> RecordedRowSchema(FileSystem& fs, const std::string& dir, const SchemaPtr& partition_schema) {
  ASSIGN_OR_RETURN(std::optional<DatasetSchema> recorded, ReadDatasetSchema(fs, dir));
  if (!recorded) return SchemaPtr();
  const std::string path = dir + "/" + std::string(kSchemaFileName);
  std::vector<FieldPtr> fields;
  for (const RecordedField& field : recorded->fields) {
    if (std::find(recorded->partition_by.begin(), recorded->partition_by.end(), field.name) !=
        recorded->partition_by.end()) {
      continue;
    }
    Result<DataTypePtr> type = ops::ParseTypeName(field.type);
    if (!type.ok()) {
      return Status::DataError("the dataset has no data files, and recflow cannot rebuild the type '" + field.type +
                               "' its schema file records")
          .WithFile(path)
          .WithField(field.name);
    }
    fields.push_back(Field::Make(field.name, *type, field.nullable));
  }
  for (const FieldPtr& field : partition_schema->fields()) fields.push_back(field);
  return Schema::Make(std::move(fields));
}

/// The first directory argument's recorded row schema (RecordedRowSchema), nullptr when no
/// directory argument has a schema file.
Result<SchemaPtr> RecordedSchemaOfInputs(FileSystem& fs, const std::vector<std::string>& args,
                                         const SchemaPtr& partition_schema) {
  for (const std::string& arg : args) {
    if (!InfoOf(fs, arg).is_directory()) continue;
    ASSIGN_OR_RETURN(SchemaPtr schema, RecordedRowSchema(fs, arg, partition_schema));
    if (schema != nullptr) return schema;
  }
  return SchemaPtr();
}

/// True when every file is an empty regular file: no rows, whatever the format.
bool AllEmptyFiles(FileSystem& fs, const std::vector<ResolvedInput>& files) {
  return std::all_of(files.begin(), files.end(), [&](const ResolvedInput& file) {
    const FileInfo info = InfoOf(fs, file.path);
    return info.type == FileType::kFile && info.size == 0;
  });
}

}  // namespace

Result<ResolvedInputs> DetectInputs(const std::vector<std::string>& args, const formats::FormatDescriptor* forced,
                                    FileSystem& fs) {
  if (args.empty()) return Status::InvalidArgument("no input");
  ResolvedInputs inputs;
  inputs.partition_schema = Schema::Make({});
  inputs.forced = forced;
  bool have_unpartitioned = false;
  for (const std::string& arg : args) {
    ASSIGN_OR_RETURN(std::vector<std::string> expanded, ExpandInputs({arg}, fs));
    std::vector<std::vector<PartitionValue>> values(expanded.size());
    SchemaPtr found = Schema::Make({});
    if (InfoOf(fs, arg).is_directory()) {
      ASSIGN_OR_RETURN(DiscoveredPartitions discovered, DiscoverDatasetPartitions(arg, expanded, fs));
      found = discovered.schema;
      values = std::move(discovered.values);
    }
    if (found->num_fields() == 0) {
      have_unpartitioned = true;
    } else if (inputs.partition_schema->num_fields() == 0) {
      inputs.partition_schema = found;
    } else if (!inputs.partition_schema->Equals(*found)) {
      return Status::DataError("input " + arg + " has partition columns " + found->ToString() + ", other inputs " +
                               inputs.partition_schema->ToString());
    }
    for (size_t i = 0; i < expanded.size(); ++i) {
      inputs.files.push_back({std::move(expanded[i]), std::move(values[i]), {}});
    }
  }
  if (have_unpartitioned && inputs.partition_schema->num_fields() > 0) {
    return Status::DataError("partitioned and unpartitioned inputs cannot be mixed");
  }
  for (const std::string& arg : args) inputs.description += (inputs.description.empty() ? "" : ", ") + arg;
  if (inputs.files.empty() || AllEmptyFiles(fs, inputs.files)) {
    // No rows (a committed dataset of zero rows): the columns its schema file records, if any.
    ASSIGN_OR_RETURN(inputs.empty_dataset_schema, RecordedSchemaOfInputs(fs, args, inputs.partition_schema));
    if (inputs.empty_dataset_schema == nullptr && inputs.files.empty()) {
      return Status::DataError(inputs.description + " holds no data file and no schema file (" +
                               std::string(kSchemaFileName) +
                               "): there are no rows, and nothing says what their columns are");
    }
  }
  for (ResolvedInput& file : inputs.files) {
    ASSIGN_OR_RETURN(file.detected, formats::BuiltinFormats().Detect(file.path, forced, fs));
    const ResolvedInput& first = inputs.files.front();
    if (file.detected.format != first.detected.format) {
      return Status::InvalidArgument("inputs mix formats (" + first.path + " is " +
                                     std::string(first.detected.format->name()) + ", " + file.path + " is " +
                                     std::string(file.detected.format->name()) + "): pass --from");
    }
  }
  return inputs;
}

}  // namespace recflow::dataset
