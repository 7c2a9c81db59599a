// OpenInputs: a Source chaining detected input files one after another, each read once, partition columns appended.
#include "recflow/pipeline/input_source.h"

#include <utility>

#include "recflow/core/compression.h"
#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/arrow_source.h"
#include "recflow/formats/avro/avro_source.h"
#include "recflow/formats/csv/csv_source.h"
#include "recflow/formats/jsonl/jsonl_source.h"
#include "recflow/formats/schema_json.h"
#include "recflow/formats/tfrecord/sampled_schema.h"
#include "recflow/pipeline/batch_source.h"

namespace recflow::pipeline {

namespace {

// An inner unit's batch under the chained schema: the same columns (the first file's inferred
// ones now nullable), then the file's partition columns.
class ConformedUnit final : public SourceUnit {
 public:
  ConformedUnit(std::unique_ptr<SourceUnit> inner, SchemaPtr schema, SchemaPtr partition_schema,
                std::vector<dataset::PartitionValue> values)
      : inner_(std::move(inner)),
        schema_(std::move(schema)),
        partition_schema_(std::move(partition_schema)),
        values_(std::move(values)) {}

  Result<DecodedUnit> Decode() override {
    ASSIGN_OR_RETURN(DecodedUnit unit, inner_->Decode());
    std::vector<std::shared_ptr<ArrayData>> columns = unit.batch->columns();
    if (partition_schema_->num_fields() > 0) {
      ASSIGN_OR_RETURN(auto extra,
                       dataset::MakePartitionColumns(*partition_schema_, values_, unit.batch->num_rows()));
      for (auto& c : extra) columns.push_back(std::move(c));
    }
    ASSIGN_OR_RETURN(unit.batch, RecordBatch::Make(schema_, unit.batch->num_rows(), std::move(columns)));
    return unit;
  }
  int64_t input_bytes() const override { return inner_->input_bytes(); }

 private:
  std::unique_ptr<SourceUnit> inner_;
  SchemaPtr schema_;
  SchemaPtr partition_schema_;
  std::vector<dataset::PartitionValue> values_;  // a copy: the unit may outlive the source
};

// The files in order, each opened once, when the previous one is exhausted.
class ChainedSource final : public Source {
 public:
  ChainedSource(ResolvedInputs inputs, InputOptions options)
      : files_(std::move(inputs.files)),
        options_(std::move(options)),
        partition_schema_(std::move(inputs.partition_schema)),
        name_(files_.size() == 1 ? files_[0].path : std::to_string(files_.size()) + " files") {}

  Status Init() {
    if (options_.type_hints != nullptr && (format(0) == InputFormat::kAvro || format(0) == InputFormat::kArrow)) {
      return Status::InvalidArgument("schema hints apply to inferred schemas (CSV, JSON Lines, TFRecord); " +
                                     files_[0].path + " carries its own schema: cast its columns in a pipeline instead");
    }
    // Inference over several files sees a sample: a column it never found null may be null (or
    // a feature missing) in a later file, so every column is nullable.
    const bool several_inferred = files_.size() > 1 && SchemaInferred(format(0));
    if (several_inferred && format(0) == InputFormat::kTfrecord) {
      // Features differ from file to file (a feature only some partitions have): sample them all
      // first, then read them from their start.
      for (const ResolvedInput& file : files_) {
        if (file.detected.rereadable) continue;
        return Status::InvalidArgument(
            (file.path == "-" ? std::string("standard input") : file.path) +
            " is not a regular file: TFRecord inputs read together infer their schema from a sample of each "
            "before reading them, and a pipe can be read only once; give --schema, or read it on its own");
      }
      auto open = [this](size_t k) { return tfrecord::RecordReader::Open(files_[k].path, ReaderOptionsOf(k)); };
      ASSIGN_OR_RETURN(tfrecord::SampledSchema sampled,
                       tfrecord::InferSampledSchema(files_.size(), open, options_.tfrecord.record_type,
                                                    options_.tfrecord.inference_records,
                                                    options_.tfrecord.skip_bad_records));
      ASSIGN_OR_RETURN(data_schema_, ApplySchemaHints(sampled.schema, options_.type_hints, name_));
      data_schema_ = data_schema_->WithAllNullable();
      RETURN_NOT_OK(OpenFile(0, data_schema_));
    } else {
      RETURN_NOT_OK(OpenFile(0, nullptr));
      data_schema_ = current_->schema();
      // The first file keeps the schema it inferred; its batches are relabelled (ConformedUnit).
      if (several_inferred) data_schema_ = data_schema_->WithAllNullable();
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
    for (const ResolvedInput& file : files_) {
      if (file.path == "-") return -1;
      const Result<FileInfo> info = options_.file_system->GetTargetInfo(file.path);
      if (!info.ok() || info->type != FileType::kFile) return -1;
      total += info->size;
    }
    return total;
  }

  const std::string& current_file() const override { return files_[index_].path; }

  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    while (true) {
      ASSIGN_OR_RETURN(std::unique_ptr<SourceUnit> unit, current_->NextUnit());
      if (unit != nullptr) {
        if (partition_schema_->num_fields() == 0 && current_->schema() == data_schema_) return unit;
        return std::unique_ptr<SourceUnit>(
            std::make_unique<ConformedUnit>(std::move(unit), schema_, partition_schema_, files_[index_].partition));
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

  InputFormat format(size_t index) const { return files_[index].detected.format; }

  /// The TFRecord reader options for file `index`: its detected codec unless one was named.
  tfrecord::ReaderOptions ReaderOptionsOf(size_t index) const {
    tfrecord::ReaderOptions reader = WithDetectedCodec(options_.tfrecord.reader, files_[index].detected);
    reader.file_system = options_.file_system;
    return reader;
  }

  /// File `index` as a stream of its bytes, decompressed with the codec its content showed.
  Result<std::unique_ptr<InputStream>> OpenText(size_t index) const {
    const Compression codec =
        formats::ReadableCompression(files_[index].detected.sniffed.codec).value_or(Compression::kNone);
    ASSIGN_OR_RETURN(std::unique_ptr<InputStream> file, OpenInputFile(*options_.file_system, files_[index].path));
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
        o.reader = ReaderOptionsOf(index);
        if (schema != nullptr) o.schema = schema;
        ASSIGN_OR_RETURN(current_, tfrecord::OpenTfrecordSource(path, o));
        break;
      }
      case InputFormat::kAvro: {
        avro::ReadOptions o = options_.avro;
        o.file_system = options_.file_system;
        ASSIGN_OR_RETURN(current_, avro::OpenAvroSource(path, o));
        break;
      }
      case InputFormat::kArrow: {
        arrow_ipc::IpcReadOptions o;
        o.file_system = options_.file_system;
        ASSIGN_OR_RETURN(current_, arrow_ipc::OpenArrowSource(path, files_[index].detected.sniffed.content, o));
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

  std::vector<ResolvedInput> files_;
  InputOptions options_;
  SchemaPtr partition_schema_;
  std::string name_;
  SchemaPtr data_schema_;
  SchemaPtr schema_;
  std::vector<std::string> csv_header_;  // the first CSV file's header row
  size_t index_ = 0;
  std::unique_ptr<Source> current_;
};

}  // namespace

Result<std::unique_ptr<Source>> OpenInputs(const ResolvedInputs& inputs, const InputOptions& options) {
  if (inputs.empty_dataset_schema != nullptr) {
    return MakeBatchSource(inputs.description, inputs.empty_dataset_schema,
                           std::make_shared<std::vector<std::shared_ptr<RecordBatch>>>());
  }
  if (inputs.files.empty()) return Status::InvalidArgument("no input");
  auto source = std::make_unique<ChainedSource>(inputs, options);
  RETURN_NOT_OK(source->Init());
  return std::unique_ptr<Source>(std::move(source));
}

Result<std::unique_ptr<Source>> OpenInputs(const std::vector<std::string>& args, const InputOptions& options) {
  ASSIGN_OR_RETURN(ResolvedInputs inputs, DetectInputs(args, options.format, *options.file_system));
  return OpenInputs(inputs, options);
}

}  // namespace recflow::pipeline
