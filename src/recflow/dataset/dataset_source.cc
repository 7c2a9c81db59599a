// OpenInputs: a Source chaining detected input files one after another, each read once, partition columns appended.
#include "recflow/dataset/dataset_source.h"

#include <utility>

#include "recflow/formats/batch_source.h"

namespace recflow::dataset {

namespace {

// An inner unit's batch under the chained schema: the same columns (the first file's inferred
// ones now nullable), then the file's partition columns.
class ConformedUnit final : public SourceUnit {
 public:
  ConformedUnit(std::unique_ptr<SourceUnit> inner, SchemaPtr schema, SchemaPtr partition_schema,
                std::vector<PartitionValue> values)
      : inner_(std::move(inner)),
        schema_(std::move(schema)),
        partition_schema_(std::move(partition_schema)),
        values_(std::move(values)) {}

  Result<DecodedUnit> Decode() override {
    ASSIGN_OR_RETURN(DecodedUnit unit, inner_->Decode());
    std::vector<std::shared_ptr<ArrayData>> columns = unit.batch->columns();
    if (partition_schema_->num_fields() > 0) {
      ASSIGN_OR_RETURN(auto extra,
                       MakePartitionColumns(*partition_schema_, values_, unit.batch->num_rows()));
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
  std::vector<PartitionValue> values_;  // a copy: the unit may outlive the source
};

// The files in order, each opened once, when the previous one is exhausted.
class ChainedSource final : public Source {
 public:
  ChainedSource(ResolvedInputs inputs, InputOptions options) : options_(std::move(options)),
        partition_schema_(std::move(inputs.partition_schema)),
        name_(inputs.files.size() == 1 ? inputs.files[0].path : std::to_string(inputs.files.size()) + " files") {
    for (ResolvedInput& file : inputs.files) {
      files_.push_back({std::move(file.path), std::move(file.detected)});
      partitions_.push_back(std::move(file.partition));
    }
  }

  Status Init() {
    const formats::FormatDescriptor& format = *files_[0].detected.format;
    if (options_.settings.type_hints != nullptr && format.carries_schema()) {
      return Status::InvalidArgument("schema hints apply to inferred schemas (CSV, JSON Lines, TFRecord); " +
                                     files_[0].path + " carries its own schema: cast its columns in a pipeline instead");
    }
    ASSIGN_OR_RETURN(const std::shared_ptr<const formats::FormatReadOptions> read_options,
                     ReadOptionsFor(options_, format));
    opener_ = format.NewOpener(read_options);
    // Inference over several files sees a sample: a column it never found null may be null (or
    // a feature missing) in a later file, so every column is nullable.
    const bool several_inferred = files_.size() > 1 && read_options->infers_schema();
    SchemaPtr sampled;
    if (several_inferred) {
      ASSIGN_OR_RETURN(sampled, opener_->SampleSchema(files_, name_));
    }
    if (sampled != nullptr) {
      data_schema_ = sampled->WithAllNullable();
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
    for (const formats::FileToRead& file : files_) {
      if (file.path == "-") return -1;
      const Result<FileInfo> info = options_.settings.file_system->GetTargetInfo(file.path);
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
            std::make_unique<ConformedUnit>(std::move(unit), schema_, partition_schema_, partitions_[index_]));
      }
      if (index_ + 1 >= files_.size()) return std::unique_ptr<SourceUnit>();
      RETURN_NOT_OK(OpenFile(index_ + 1, data_schema_));
    }
  }

 private:
  Status OpenFile(size_t index, const SchemaPtr& schema) {
    index_ = index;
    ASSIGN_OR_RETURN(current_, opener_->Open(files_[index], schema));
    // Avro and Arrow files carry their own schema; a later file must have the first one's columns.
    if (schema != nullptr && !current_->schema()->Equals(*schema)) {
      return Status::InvalidArgument(files_[index].path + " has columns " + current_->schema()->ToString() + ", " +
                                     files_[0].path + " has " + schema->ToString());
    }
    return Status::OK();
  }

  std::vector<formats::FileToRead> files_;
  std::vector<std::vector<PartitionValue>> partitions_;  // of each file
  InputOptions options_;
  SchemaPtr partition_schema_;
  std::string name_;
  SchemaPtr data_schema_;
  SchemaPtr schema_;
  std::unique_ptr<formats::FileOpener> opener_;
  size_t index_ = 0;
  std::unique_ptr<Source> current_;
};

}  // namespace

Result<std::shared_ptr<const formats::FormatReadOptions>> ReadOptionsFor(const InputOptions& options,
                                                                          const formats::FormatDescriptor& format) {
  if (const auto it = options.read_options.find(&format); it != options.read_options.end()) return it->second;
  return format.ParseReadOptions(options.settings);
}

Result<std::unique_ptr<Source>> OpenInputs(const ResolvedInputs& inputs, const InputOptions& options) {
  if (inputs.empty_dataset_schema != nullptr) {
    return MakeBatchSource(inputs.description, inputs.empty_dataset_schema,
                           std::make_shared<std::vector<std::shared_ptr<RecordBatch>>>());
  }
  if (inputs.files.empty()) return Status::InvalidArgument("no input");
  if (options.settings.file_system == nullptr) return Status::InvalidArgument("read settings without a file system");
  auto source = std::make_unique<ChainedSource>(inputs, options);
  RETURN_NOT_OK(source->Init());
  return std::unique_ptr<Source>(std::move(source));
}

Result<std::unique_ptr<Source>> OpenInputs(const std::vector<std::string>& args, const InputOptions& options) {
  if (options.settings.file_system == nullptr) return Status::InvalidArgument("read settings without a file system");
  ASSIGN_OR_RETURN(ResolvedInputs inputs, DetectInputs(args, options.format, *options.settings.file_system));
  return OpenInputs(inputs, options);
}

}  // namespace recflow::dataset
