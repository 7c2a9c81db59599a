// BatchSource: units that hand out batches held in memory.
#include "recflow/pipeline/batch_source.h"

namespace recflow::pipeline {

namespace {

class BatchUnit final : public SourceUnit {
 public:
  explicit BatchUnit(std::shared_ptr<RecordBatch> batch) : batch_(std::move(batch)) {}
  Result<DecodedUnit> Decode() override {
    DecodedUnit unit;
    unit.input_records = batch_->num_rows();
    unit.batch = std::move(batch_);
    return unit;
  }
  int64_t input_bytes() const override { return 0; }

 private:
  std::shared_ptr<RecordBatch> batch_;
};

class BatchSource final : public Source {
 public:
  BatchSource(std::string name, SchemaPtr schema, std::shared_ptr<const std::vector<std::shared_ptr<RecordBatch>>> batches)
      : name_(std::move(name)), schema_(std::move(schema)), batches_(std::move(batches)) {}
  const SchemaPtr& schema() const override { return schema_; }
  const std::string& name() const override { return name_; }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    if (next_ >= batches_->size()) return std::unique_ptr<SourceUnit>();
    return std::unique_ptr<SourceUnit>(std::make_unique<BatchUnit>((*batches_)[next_++]));
  }

 private:
  std::string name_;
  SchemaPtr schema_;
  std::shared_ptr<const std::vector<std::shared_ptr<RecordBatch>>> batches_;
  size_t next_ = 0;
};

}  // namespace

std::unique_ptr<Source> MakeBatchSource(std::string name, SchemaPtr schema,
                                        std::shared_ptr<const std::vector<std::shared_ptr<RecordBatch>>> batches) {
  return std::make_unique<BatchSource>(std::move(name), std::move(schema), std::move(batches));
}

}  // namespace recflow::pipeline
