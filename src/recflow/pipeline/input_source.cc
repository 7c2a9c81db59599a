// OpenInputs: format detection, partition discovery and a Source chaining one file after another.
#include "recflow/pipeline/input_source.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <utility>

#include "recflow/core/compression.h"
#include "recflow/core/io.h"
#include "recflow/dataset/dataset_schema.h"
#include "recflow/dataset/inputs.h"
#include "recflow/dataset/partition_discovery.h"
#include "recflow/formats/arrow_ipc/arrow_source.h"
#include "recflow/formats/avro/avro_source.h"
#include "recflow/formats/csv/csv_source.h"
#include "recflow/formats/jsonl/jsonl_source.h"
#include "recflow/formats/schema_json.h"
#include "recflow/formats/tfrecord/sampled_schema.h"
#include "recflow/ops/columns/type_name.h"
#include "recflow/pipeline/batch_source.h"

namespace recflow::pipeline {

namespace {

// One input file and its partition values.
struct InputFile {
  std::string path;
  std::vector<dataset::PartitionValue> partition;
};

// Appends the file's partition columns to every batch of an inner unit.
class PartitionedUnit final : public SourceUnit {
 public:
  PartitionedUnit(std::unique_ptr<SourceUnit> inner, SchemaPtr schema, SchemaPtr partition_schema,
                  const std::vector<dataset::PartitionValue>* values)
      : inner_(std::move(inner)),
        schema_(std::move(schema)),
        partition_schema_(std::move(partition_schema)),
        values_(values) {}

  Result<DecodedUnit> Decode() override {
    ASSIGN_OR_RETURN(DecodedUnit unit, inner_->Decode());
    std::vector<std::shared_ptr<ArrayData>> columns = unit.batch->columns();
    ASSIGN_OR_RETURN(auto extra, dataset::MakePartitionColumns(*partition_schema_, *values_, unit.batch->num_rows()));
    for (auto& c : extra) columns.push_back(std::move(c));
    ASSIGN_OR_RETURN(unit.batch, RecordBatch::Make(schema_, unit.batch->num_rows(), std::move(columns)));
    return unit;
  }
  int64_t input_bytes() const override { return inner_->input_bytes(); }

 private:
  std::unique_ptr<SourceUnit> inner_;
  SchemaPtr schema_;
  SchemaPtr partition_schema_;
  const std::vector<dataset::PartitionValue>* values_;
};

// The files in order, each opened when the previous one is exhausted.
class ChainedSource final : public Source {
 public:
  ChainedSource(std::vector<InputFile> files, std::vector<DetectedInput> detected, InputOptions options,
                SchemaPtr partition_schema)
      : files_(std::move(files)),
        detected_(std::move(detected)),
        options_(std::move(options)),
        partition_schema_(std::move(partition_schema)),
        name_(files_.size() == 1 ? files_[0].path : std::to_string(files_.size()) + " files") {}

  Status Init() {
    if (options_.type_hints != nullptr && (format(0) == InputFormat::kAvro || format(0) == InputFormat::kArrow)) {
      return Status::InvalidArgument("schema hints apply to inferred schemas (CSV, JSON Lines, TFRecord); " +
                                     files_[0].path + " carries its own schema: cast its columns in a pipeline instead");
    }
    if (files_.size() > 1 && SchemaInferred(format(0)) && format(0) == InputFormat::kTfrecord) {
      // Features differ from file to file (a feature only some partitions have): sample them all.
      auto open = [this](size_t k) { return tfrecord::RecordReader::Open(files_[k].path, options_.tfrecord.reader); };
      ASSIGN_OR_RETURN(tfrecord::SampledSchema sampled,
                       tfrecord::InferSampledSchema(files_.size(), open, options_.tfrecord.record_type,
                                                    options_.tfrecord.inference_records,
                                                    options_.tfrecord.skip_bad_records));
      ASSIGN_OR_RETURN(data_schema_, ApplySchemaHints(sampled.schema, options_.type_hints, name_));
    } else {
      RETURN_NOT_OK(OpenFile(0, nullptr));
      data_schema_ = current_->schema();
    }
    if (files_.size() > 1 && SchemaInferred(format(0))) {
      // Inference saw a sample: a column it never found null may be null (or a feature
      // missing) in a later file, so every column is nullable.
      data_schema_ = data_schema_->WithAllNullable();
      RETURN_NOT_OK(OpenFile(0, data_schema_));
    }
    std::vector<FieldPtr> fields = data_schema_->fields();
    for (const FieldPtr& f : partition_schema_->fields()) {
      if (data_schema_->GetFieldIndex(f->name()) >= 0) {
        return Status::InvalidArgument("partition column '" + f->name() + "' is also a column of " + files_[0].path);
      }
      fields.push_back(f);
    }
    schema_ = Schema::Make(std::move(fields));
    return Status::OK();
  }

  const SchemaPtr& schema() const override { return schema_; }
  const std::string& name() const override { return name_; }
  int64_t stored_bytes() const override {
    int64_t total = 0;
    for (const InputFile& file : files_) {
      std::error_code ec;
      const auto size = std::filesystem::file_size(file.path, ec);
      if (file.path == "-" || ec) return -1;
      total += static_cast<int64_t>(size);
    }
    return total;
  }

  const std::string& current_file() const override { return files_[index_].path; }

  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    while (true) {
      ASSIGN_OR_RETURN(std::unique_ptr<SourceUnit> unit, current_->NextUnit());
      if (unit != nullptr) {
        if (partition_schema_->num_fields() == 0) return unit;
        return std::unique_ptr<SourceUnit>(std::make_unique<PartitionedUnit>(
            std::move(unit), schema_, partition_schema_, &files_[index_].partition));
      }
      if (index_ + 1 >= files_.size()) return std::unique_ptr<SourceUnit>();
      RETURN_NOT_OK(OpenFile(index_ + 1, data_schema_));
    }
  }

 private:
  /// True when files of `format` get their schema by inference (not --schema, not the file).
  bool SchemaInferred(InputFormat format) const {
    switch (format) {
      case InputFormat::kCsv:
        return options_.csv.schema == nullptr;
      case InputFormat::kJsonl:
        return options_.jsonl.schema == nullptr;
      case InputFormat::kTfrecord:
        return options_.tfrecord.schema == nullptr;
      case InputFormat::kAvro:
      case InputFormat::kArrow:
      case InputFormat::kAuto:
        break;
    }
    return false;
  }

  InputFormat format(size_t index) const { return detected_[index].format; }

  /// File `index` as a stream of its bytes, decompressed with the codec its content showed.
  Result<std::unique_ptr<InputStream>> OpenText(size_t index) const {
    const Compression codec =
        formats::ReadableCompression(detected_[index].sniffed.codec).value_or(Compression::kNone);
    ASSIGN_OR_RETURN(std::unique_ptr<InputStream> file, FileInputStream::Open(files_[index].path));
    return MakeDecompressingStream(codec, std::move(file));
  }

  Status OpenFile(size_t index, const SchemaPtr& schema) {
    index_ = index;
    const std::string& path = files_[index].path;
    switch (format(index)) {
      case InputFormat::kCsv: {
        csv::ReadOptions o = options_.csv;
        if (schema != nullptr) o.schema = schema;
        // Later files must name their columns as the first CSV file did.
        o.expected_header = csv_header_;
        ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, OpenText(index));
        ASSIGN_OR_RETURN(current_, csv::OpenCsvSource(std::move(in), o, csv_header_.empty() ? &csv_header_ : nullptr));
        break;
      }
      case InputFormat::kJsonl: {
        jsonl::ReadOptions o = options_.jsonl;
        if (schema != nullptr) o.schema = schema;
        ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, OpenText(index));
        ASSIGN_OR_RETURN(current_, jsonl::OpenJsonlSource(std::move(in), o));
        break;
      }
      case InputFormat::kTfrecord: {
        tfrecord::SourceOptions o = options_.tfrecord;
        if (schema != nullptr) o.schema = schema;
        ASSIGN_OR_RETURN(current_, tfrecord::OpenTfrecordSource(path, o));
        break;
      }
      case InputFormat::kAvro: {
        ASSIGN_OR_RETURN(current_, avro::OpenAvroSource(path, options_.avro));
        break;
      }
      case InputFormat::kArrow: {
        ASSIGN_OR_RETURN(current_, arrow_ipc::OpenArrowSource(path));
        break;
      }
      case InputFormat::kAuto:
        return Status::Internal("input format not resolved");
    }
    // Avro and Arrow files carry their own schema; a later file must have the first one's columns.
    if (schema != nullptr && !current_->schema()->Equals(*schema)) {
      return Status::InvalidArgument(path + " has columns " + current_->schema()->ToString() + ", " +
                                     files_[0].path + " has " + schema->ToString());
    }
    return Status::OK();
  }

  std::vector<InputFile> files_;
  std::vector<DetectedInput> detected_;
  InputOptions options_;
  SchemaPtr partition_schema_;
  std::string name_;
  SchemaPtr data_schema_;
  SchemaPtr schema_;
  std::vector<std::string> csv_header_;  // the first CSV file's header row
  size_t index_ = 0;
  std::unique_ptr<Source> current_;
};

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

bool IsDirectory(const std::string& path) {
  std::error_code ec;
  return path != "-" && std::filesystem::is_directory(path, ec);
}

/// The rows of dataset directory `dir` as its schema file records them, in the order reading
/// its files gives: the data columns, then the partition columns (`partition_schema`, as
/// discovered). nullptr when it has no schema file.
Result<SchemaPtr> RecordedRowSchema(const std::string& dir, const SchemaPtr& partition_schema) {
  ASSIGN_OR_RETURN(std::optional<dataset::DatasetSchema> recorded, dataset::ReadDatasetSchema(dir));
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
Result<SchemaPtr> RecordedSchemaOfInputs(const std::vector<std::string>& args, const SchemaPtr& partition_schema) {
  for (const std::string& arg : args) {
    if (!IsDirectory(arg)) continue;
    ASSIGN_OR_RETURN(SchemaPtr schema, RecordedRowSchema(arg, partition_schema));
    if (schema != nullptr) return schema;
  }
  return SchemaPtr();
}

/// True when every file is an empty regular file: no rows, whatever the format.
bool AllEmptyFiles(const std::vector<InputFile>& files) {
  return std::all_of(files.begin(), files.end(), [](const InputFile& file) {
    std::error_code ec;
    return file.path != "-" && std::filesystem::is_regular_file(file.path, ec) &&
           std::filesystem::file_size(file.path, ec) == 0 && !ec;
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

Result<InputFormat> InputFormatFromName(std::string_view path) {
  if (std::optional<InputFormat> format = FormatOfContent(formats::ContentFromSuffix(path))) return *format;
  return Status::NotFound("cannot tell the format of " + std::string(path) + " from its name: pass --from");
}

Result<DetectedInput> DetectInputFormat(const std::string& path, InputFormat forced) {
  DetectedInput detected;
  ASSIGN_OR_RETURN(detected.sniffed, formats::SniffFile(path));
  const formats::Sniffed& sniffed = detected.sniffed;
  if (forced != InputFormat::kAuto) {
    formats::Sniffed codec_only = sniffed;
    codec_only.content = formats::ContentKind::kUnknown;
    RETURN_NOT_OK(formats::CheckReadable(path, codec_only));
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

Result<std::unique_ptr<Source>> OpenInputs(const std::vector<std::string>& args, const InputOptions& options) {
  if (args.empty()) return Status::InvalidArgument("no input");
  std::vector<InputFile> files;
  SchemaPtr partition_schema = Schema::Make({});
  bool have_unpartitioned = false;
  for (const std::string& arg : args) {
    ASSIGN_OR_RETURN(std::vector<std::string> expanded, ExpandInputs({arg}));
    std::vector<std::vector<dataset::PartitionValue>> values(expanded.size());
    SchemaPtr found = Schema::Make({});
    if (IsDirectory(arg)) {
      ASSIGN_OR_RETURN(dataset::DiscoveredPartitions discovered, dataset::DiscoverDatasetPartitions(arg, expanded));
      found = discovered.schema;
      values = std::move(discovered.values);
    }
    if (found->num_fields() == 0) {
      have_unpartitioned = true;
    } else if (partition_schema->num_fields() == 0) {
      partition_schema = found;
    } else if (!partition_schema->Equals(*found)) {
      return Status::DataError("input " + arg + " has partition columns " + found->ToString() +
                                     ", other inputs " + partition_schema->ToString());
    }
    for (size_t i = 0; i < expanded.size(); ++i) files.push_back({std::move(expanded[i]), std::move(values[i])});
  }
  if (have_unpartitioned && partition_schema->num_fields() > 0) {
    return Status::DataError("partitioned and unpartitioned inputs cannot be mixed");
  }
  if (files.empty() || AllEmptyFiles(files)) {
    // No rows (a committed dataset of zero rows): the columns its schema file records, if any.
    ASSIGN_OR_RETURN(SchemaPtr recorded, RecordedSchemaOfInputs(args, partition_schema));
    std::string names;
    for (const std::string& arg : args) names += (names.empty() ? "" : ", ") + arg;
    if (recorded != nullptr) {
      return MakeBatchSource(names, std::move(recorded), std::make_shared<std::vector<std::shared_ptr<RecordBatch>>>());
    }
    if (files.empty()) {
      return Status::DataError(names + " holds no data file and no schema file (" +
                               std::string(dataset::kSchemaFileName) +
                               "): there are no rows, and nothing says what their columns are");
    }
  }
  std::vector<DetectedInput> detected;
  for (const InputFile& f : files) {
    ASSIGN_OR_RETURN(DetectedInput input, DetectInputFormat(f.path, options.format));
    if (!detected.empty() && input.format != detected.front().format) {
      return Status::InvalidArgument("inputs mix formats (" + files.front().path + " is " +
                                     std::string(InputFormatName(detected.front().format)) + ", " + f.path + " is " +
                                     std::string(InputFormatName(input.format)) + "): pass --from");
    }
    detected.push_back(std::move(input));
  }
  auto source = std::make_unique<ChainedSource>(std::move(files), std::move(detected), options, partition_schema);
  RETURN_NOT_OK(source->Init());
  return std::unique_ptr<Source>(std::move(source));
}

}  // namespace recflow::pipeline
