// OpenInputs: format detection, partition discovery and a Source chaining one file after another.
#include "recflow/pipeline/input_source.h"

#include <filesystem>
#include <utility>

#include "recflow/core/io.h"
#include "recflow/dataset/inputs.h"
#include "recflow/dataset/partition_discovery.h"
#include "recflow/formats/arrow_ipc/arrow_source.h"
#include "recflow/formats/avro/avro_source.h"
#include "recflow/formats/csv/csv_source.h"
#include "recflow/formats/jsonl/jsonl_source.h"
#include "recflow/formats/tfrecord/sampled_schema.h"

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
  ChainedSource(std::vector<InputFile> files, std::vector<InputFormat> formats, InputOptions options,
                SchemaPtr partition_schema)
      : files_(std::move(files)),
        formats_(std::move(formats)),
        options_(std::move(options)),
        partition_schema_(std::move(partition_schema)),
        name_(files_.size() == 1 ? files_[0].path : std::to_string(files_.size()) + " files") {}

  Status Init() {
    if (files_.size() > 1 && SchemaInferred(formats_[0]) && formats_[0] == InputFormat::kTfrecord) {
      // Features differ from file to file (a feature only some partitions have): sample them all.
      auto open = [this](size_t k) { return tfrecord::RecordReader::Open(files_[k].path, options_.tfrecord.reader); };
      ASSIGN_OR_RETURN(tfrecord::SampledSchema sampled,
                       tfrecord::InferSampledSchema(files_.size(), open, options_.tfrecord.record_type,
                                                    options_.tfrecord.inference_records,
                                                    options_.tfrecord.skip_bad_records));
      data_schema_ = sampled.schema;
    } else {
      RETURN_NOT_OK(OpenFile(0, nullptr));
      data_schema_ = current_->schema();
    }
    if (files_.size() > 1 && SchemaInferred(formats_[0])) {
      // Inference saw a sample: a column it never found null may be null (or a feature
      // missing) in a later file, so every column is nullable.
      std::vector<FieldPtr> relaxed;
      for (const FieldPtr& f : data_schema_->fields()) {
        relaxed.push_back(Field::Make(f->name(), f->type(), /*nullable=*/true, f->metadata()));
      }
      data_schema_ = Schema::Make(std::move(relaxed), data_schema_->metadata());
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

  Status OpenFile(size_t index, const SchemaPtr& schema) {
    index_ = index;
    const std::string& path = files_[index].path;
    switch (formats_[index]) {
      case InputFormat::kCsv: {
        csv::ReadOptions o = options_.csv;
        if (schema != nullptr) o.schema = schema;
        // Later files must name their columns as the first CSV file did.
        o.expected_header = csv_header_;
        ASSIGN_OR_RETURN(current_, csv::OpenCsvSource(path, o, csv_header_.empty() ? &csv_header_ : nullptr));
        break;
      }
      case InputFormat::kJsonl: {
        jsonl::ReadOptions o = options_.jsonl;
        if (schema != nullptr) o.schema = schema;
        ASSIGN_OR_RETURN(current_, jsonl::OpenJsonlSource(path, o));
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
  std::vector<InputFormat> formats_;
  InputOptions options_;
  SchemaPtr partition_schema_;
  std::string name_;
  SchemaPtr data_schema_;
  SchemaPtr schema_;
  std::vector<std::string> csv_header_;  // the first CSV file's header row
  size_t index_ = 0;
  std::unique_ptr<Source> current_;
};

bool IsDirectory(const std::string& path) {
  std::error_code ec;
  return path != "-" && std::filesystem::is_directory(path, ec);
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

Result<InputFormat> InputFormatFromName(std::string_view path) {
  for (std::string_view z : {".gz", ".zz", ".zlib"}) {
    if (path.ends_with(z)) {
      path.remove_suffix(z.size());
      break;
    }
  }
  for (std::string_view s : {".csv", ".tsv"}) {
    if (path.ends_with(s)) return InputFormat::kCsv;
  }
  for (std::string_view s : {".jsonl", ".ndjson", ".json"}) {
    if (path.ends_with(s)) return InputFormat::kJsonl;
  }
  for (std::string_view s : {".tfrecord", ".tfrecords", ".tfr"}) {
    if (path.ends_with(s)) return InputFormat::kTfrecord;
  }
  if (path.ends_with(".avro")) return InputFormat::kAvro;
  for (std::string_view s : {".arrow", ".arrows", ".feather", ".ipc"}) {
    if (path.ends_with(s)) return InputFormat::kArrow;
  }
  return Status::NotFound("cannot tell the format of " + std::string(path) + " from its name: pass --from");
}

Result<InputFormat> DetectInputFormat(const std::string& path) {
  Result<InputFormat> by_name = InputFormatFromName(path);
  if (by_name.ok() || path == "-") return by_name;
  auto in = FileInputStream::Open(path);
  if (!in.ok()) return by_name;
  char head[6] = {};
  const Result<int64_t> got = (*in)->Read(head, sizeof(head));
  const std::string_view bytes(head, got.ok() ? static_cast<size_t>(*got) : 0);
  if (bytes == "ARROW1" || bytes.starts_with("\xFF\xFF\xFF\xFF")) return InputFormat::kArrow;
  return by_name;
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
  std::vector<InputFormat> formats;
  for (const InputFile& f : files) {
    if (options.format != InputFormat::kAuto) {
      formats.push_back(options.format);
      continue;
    }
    if (f.path == "-") return Status::InvalidArgument("reading standard input needs --from");
    ASSIGN_OR_RETURN(InputFormat format, DetectInputFormat(f.path));
    if (!formats.empty() && format != formats.front()) {
      return Status::InvalidArgument("inputs mix formats (" + files.front().path + ", " + f.path + "): pass --from");
    }
    formats.push_back(format);
  }
  auto source = std::make_unique<ChainedSource>(std::move(files), std::move(formats), options, partition_schema);
  RETURN_NOT_OK(source->Init());
  return std::unique_ptr<Source>(std::move(source));
}

}  // namespace recflow::pipeline
