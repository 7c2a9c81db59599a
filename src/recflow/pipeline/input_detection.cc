// DetectInputs: expansion, partition discovery and one content sniff per input; the format each is read as.
#include "recflow/pipeline/input_detection.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "recflow/dataset/dataset_schema.h"
#include "recflow/dataset/inputs.h"
#include "recflow/ops/columns/type_name.h"

namespace recflow::pipeline {

namespace {

/// The input format that reads `content`; nullopt for unknown and foreign content.
std::optional<InputFormat> FormatOfContent(formats::ContentKind content) {
  switch (content) {
    case formats::ContentKind::kEmpty:  // zero records, as Beam writes empty shards
    case formats::ContentKind::kTfrecord:
      return InputFormat::kTfrecord;
    case formats::ContentKind::kArrowFile:
    case formats::ContentKind::kArrowStream:
    case formats::ContentKind::kArrowLegacyStream:
      return InputFormat::kArrow;
    case formats::ContentKind::kAvro:
      return InputFormat::kAvro;
    case formats::ContentKind::kJsonl:
      return InputFormat::kJsonl;
    case formats::ContentKind::kCsv:
      return InputFormat::kCsv;
    default:
      return std::nullopt;
  }
}

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
  ASSIGN_OR_RETURN(std::optional<dataset::DatasetSchema> recorded, dataset::ReadDatasetSchema(fs, dir));
  if (!recorded) return SchemaPtr();
  const std::string path = dir + "/" + std::string(dataset::kSchemaFileName);
  std::vector<FieldPtr> fields;
  for (const dataset::RecordedField& field : recorded->fields) {
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

Result<InputFormat> ParseInputFormat(std::string_view name) {
  if (name.empty() || name == "auto") return InputFormat::kAuto;
  if (name == "csv") return InputFormat::kCsv;
  if (name == "jsonl" || name == "json") return InputFormat::kJsonl;
  if (name == "tfrecord") return InputFormat::kTfrecord;
  if (name == "avro") return InputFormat::kAvro;
  if (name == "arrow" || name == "feather") return InputFormat::kArrow;
  return Status::InvalidArgument("unknown input format '" + std::string(name) + "' (csv, jsonl, tfrecord, avro, arrow)");
}

std::string_view InputFormatName(InputFormat format) {
  switch (format) {
    case InputFormat::kAuto: return "auto";
    case InputFormat::kCsv: return "csv";
    case InputFormat::kJsonl: return "jsonl";
    case InputFormat::kTfrecord: return "tfrecord";
    case InputFormat::kAvro: return "avro";
    case InputFormat::kArrow: return "arrow";
  }
  return "unknown";
}

Result<DetectedInput> DetectInputFormat(const std::string& path, InputFormat forced, FileSystem& fs) {
  DetectedInput detected;
  ASSIGN_OR_RETURN(detected.sniffed, formats::SniffFile(path, fs));
  detected.rereadable = InfoOf(fs, path).type == FileType::kFile;
  const formats::Sniffed& sniffed = detected.sniffed;
  if (forced != InputFormat::kAuto) {
    RETURN_NOT_OK(formats::CheckReadableCodec(path, sniffed));
    detected.format = forced;
  } else {
    RETURN_NOT_OK(formats::CheckReadable(path, sniffed));
    std::optional<InputFormat> format = FormatOfContent(sniffed.content);
    if (!format) {
      return Status::NotFound("cannot tell the format of " + path +
                              ": its first bytes match no format recflow reads and its name has no known suffix; "
                              "pass --from");
    }
    detected.format = *format;
  }
  const bool self_compressed = detected.format == InputFormat::kAvro || detected.format == InputFormat::kArrow;
  if (self_compressed && sniffed.codec != formats::SniffedCodec::kNone) {
    return Status::DataError(std::string(formats::CodecName(sniffed.codec)) + "-compressed " +
                             std::string(InputFormatName(detected.format)) +
                             " input: recflow reads Avro and Arrow IPC uncompressed (their own block and buffer "
                             "compression is read); decompress it first")
        .WithFile(path);
  }
  return detected;
}

Result<ResolvedInputs> DetectInputs(const std::vector<std::string>& args, InputFormat forced, FileSystem& fs) {
  if (args.empty()) return Status::InvalidArgument("no input");
  ResolvedInputs inputs;
  inputs.partition_schema = Schema::Make({});
  inputs.forced = forced;
  bool have_unpartitioned = false;
  for (const std::string& arg : args) {
    ASSIGN_OR_RETURN(std::vector<std::string> expanded, ExpandInputs({arg}, fs));
    std::vector<std::vector<dataset::PartitionValue>> values(expanded.size());
    SchemaPtr found = Schema::Make({});
    if (InfoOf(fs, arg).is_directory()) {
      ASSIGN_OR_RETURN(dataset::DiscoveredPartitions discovered, dataset::DiscoverDatasetPartitions(arg, expanded, fs));
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
                               std::string(dataset::kSchemaFileName) +
                               "): there are no rows, and nothing says what their columns are");
    }
  }
  for (ResolvedInput& file : inputs.files) {
    ASSIGN_OR_RETURN(file.detected, DetectInputFormat(file.path, forced, fs));
    const ResolvedInput& first = inputs.files.front();
    if (file.detected.format != first.detected.format) {
      return Status::InvalidArgument("inputs mix formats (" + first.path + " is " +
                                     std::string(InputFormatName(first.detected.format)) + ", " + file.path + " is " +
                                     std::string(InputFormatName(file.detected.format)) + "): pass --from");
    }
  }
  return inputs;
}

tfrecord::ReaderOptions WithDetectedCodec(tfrecord::ReaderOptions options, const DetectedInput& input) {
  if (!options.compression_auto) return options;
  options.compression_auto = false;
  options.compression = formats::ReadableCompression(input.sniffed.codec).value_or(Compression::kNone);
  return options;
}

}  // namespace recflow::pipeline
