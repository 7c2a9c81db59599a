// OpenSplit and OpenSplits: the file checked, partition columns appended, offsets mapped back to the file, splits chained.
#include "recflow/dataset/split_source.h"

#include <utility>

#include "recflow/dataset/partition_values.h"
#include "recflow/dataset/split_open_internal.h"

namespace recflow::dataset {

namespace {

/// What every unit of a split shares with its source (a unit may outlive it).
struct SplitContext {
  SchemaPtr schema;            // data columns, then partition columns
  SchemaPtr partition_schema;  // the partition columns
  std::vector<PartitionValue> values;
  formats::SpliceMap map;
  std::string note;            // says where record indices count from
};

/// Decorates a status of the split's records: file offsets, and a note on record indices.
Status ToFile(const SplitContext& context, const Status& st) {
  if (st.ok()) return st;
  return context.map.ToFile(st).WithNote(context.note);
}

/// An inner unit's batch relabelled with the split's schema, partition columns appended.
class SplitRecordsUnit final : public SourceUnit {
 public:
  SplitRecordsUnit(std::unique_ptr<SourceUnit> inner, std::shared_ptr<const SplitContext> context)
      : inner_(std::move(inner)), context_(std::move(context)) {}

  Result<DecodedUnit> Decode() override {
    Result<DecodedUnit> decoded = inner_->Decode();
    if (!decoded.ok()) return ToFile(*context_, decoded.status());
    DecodedUnit unit = *std::move(decoded);
    for (SkippedRecord& skipped : unit.skipped) skipped.error = ToFile(*context_, skipped.error);
    std::vector<std::shared_ptr<ArrayData>> columns = unit.batch->columns();
    ASSIGN_OR_RETURN(auto extra, MakePartitionColumns(*context_->partition_schema, context_->values,
                                                      unit.batch->num_rows()));
    for (auto& c : extra) columns.push_back(std::move(c));
    ASSIGN_OR_RETURN(unit.batch, RecordBatch::Make(context_->schema, unit.batch->num_rows(), std::move(columns)));
    return unit;
  }
  int64_t input_bytes() const override { return inner_->input_bytes(); }

 private:
  std::unique_ptr<SourceUnit> inner_;
  std::shared_ptr<const SplitContext> context_;
};

class SplitSource final : public Source {
 public:
  SplitSource(std::unique_ptr<Source> inner, std::shared_ptr<const SplitContext> context, std::string name)
      : inner_(std::move(inner)), context_(std::move(context)), name_(std::move(name)) {}

  const SchemaPtr& schema() const override { return context_->schema; }
  const std::string& name() const override { return name_; }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    Result<std::unique_ptr<SourceUnit>> unit = inner_->NextUnit();
    if (!unit.ok()) return ToFile(*context_, unit.status());
    if (*unit == nullptr) return std::unique_ptr<SourceUnit>();
    return std::unique_ptr<SourceUnit>(std::make_unique<SplitRecordsUnit>(*std::move(unit), context_));
  }

 private:
  std::unique_ptr<Source> inner_;
  std::shared_ptr<const SplitContext> context_;
  std::string name_;
};

/// The splits in order, each opened when the one before is exhausted.
class ChainedSplits final : public Source {
 public:
  ChainedSplits(std::vector<Split> splits, SchemaPtr schema, InputOptions options)
      : splits_(std::move(splits)),
        schema_(std::move(schema)),
        options_(std::move(options)),
        name_(std::to_string(splits_.size()) + " splits") {}

  const SchemaPtr& schema() const override { return schema_; }
  const std::string& name() const override { return name_; }
  const std::string& current_file() const override {
    return next_ == 0 ? name_ : splits_[next_ - 1].path;
  }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    while (true) {
      if (current_ != nullptr) {
        ASSIGN_OR_RETURN(std::unique_ptr<SourceUnit> unit, current_->NextUnit());
        if (unit != nullptr) return unit;
      }
      if (next_ >= splits_.size()) return std::unique_ptr<SourceUnit>();
      ASSIGN_OR_RETURN(current_, OpenSplit(splits_[next_], schema_, options_));
      ++next_;
    }
  }

 private:
  std::vector<Split> splits_;
  SchemaPtr schema_;
  InputOptions options_;
  std::string name_;
  size_t next_ = 0;
  std::unique_ptr<Source> current_;
};

}  // namespace

Result<std::unique_ptr<Source>> OpenSplit(const Split& split, const SchemaPtr& schema, const InputOptions& options) {
  if (schema == nullptr) return Status::InvalidArgument("OpenSplit: no schema");
  const int levels = static_cast<int>(split.partition.size());
  const int data_columns = schema->num_fields() - levels;
  auto context = std::make_shared<SplitContext>();
  context->schema = schema;
  std::vector<FieldPtr> data_fields(schema->fields().begin(), schema->fields().begin() + std::max(data_columns, 0));
  std::vector<FieldPtr> partition_fields;
  ASSIGN_OR_RETURN(const SchemaPtr recorded, PartitionSchemaOf(split));
  if (data_columns < 0) {
    return Status::InvalidArgument("the schema has fewer columns than the split has partition levels")
        .WithFile(split.path);
  }
  for (int i = 0; i < levels; ++i) {
    const SplitPartitionValue& part = split.partition[static_cast<size_t>(i)];
    const FieldPtr& field = schema->field(data_columns + i);
    if (field->name() != part.key || !field->type()->Equals(*recorded->field(i)->type())) {
      return Status::InvalidArgument("the schema's last " + std::to_string(levels) +
                                     " columns must be the split's partition columns, in order: '" + part.key +
                                     "' of type " + part.type + " is not column " + std::to_string(data_columns + i))
          .WithFile(split.path);
    }
    partition_fields.push_back(field);
    if (!part.text.has_value()) {
      context->values.emplace_back();
      continue;
    }
    Result<PartitionValue> value = ParsePartitionValue(*part.text, *field->type());
    if (!value.ok()) return value.status().WithFile(split.path);
    context->values.push_back(*std::move(value));
  }
  context->partition_schema = Schema::Make(std::move(partition_fields));
  RETURN_NOT_OK(CheckSplitFile(split));
  const SchemaPtr data_schema = Schema::Make(std::move(data_fields));
  ASSIGN_OR_RETURN(formats::RangeRecords records, OpenSplitRecords(split, data_schema, options));
  if (!records.source->schema()->Equals(*data_schema)) {
    return Status::InvalidArgument("the file has columns " + records.source->schema()->ToString() +
                                   ", the dataset's schema has " + data_schema->ToString())
        .WithFile(split.path);
  }
  context->map = records.map;
  context->note = " (reading the split of " + split.range().ToString() +
                  "; record and line numbers count from its first record)";
  return std::unique_ptr<Source>(std::make_unique<SplitSource>(std::move(records.source), std::move(context), split.path));
}

Result<std::unique_ptr<Source>> OpenSplits(std::vector<Split> splits, const SchemaPtr& schema,
                                           const InputOptions& options) {
  if (schema == nullptr) return Status::InvalidArgument("OpenSplits: no schema");
  return std::unique_ptr<Source>(std::make_unique<ChainedSplits>(std::move(splits), schema, options));
}

}  // namespace recflow::dataset
