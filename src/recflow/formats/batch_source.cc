// Batch sources: units that hand out batches made by a callback (or held in memory).
#include "recflow/formats/batch_source.h"

namespace recflow {

namespace {

class CallbackSource final : public Source {
 public:
  CallbackSource(std::string name, SchemaPtr schema, NextBatchFn next, int64_t stored_bytes)
      : name_(std::move(name)), schema_(std::move(schema)), next_(std::move(next)), stored_bytes_(stored_bytes) {}
  const SchemaPtr& schema() const override { return schema_; }
  const std::string& name() const override { return name_; }
  int64_t stored_bytes() const override { return stored_bytes_; }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    ASSIGN_OR_RETURN(auto batch, next_());
    if (batch == nullptr) return std::unique_ptr<SourceUnit>();
    if (!batch->schema()->Equals(*schema_)) {
      return Status::Internal(name_ + ": a batch's schema " + batch->schema()->ToString() + " is not the source's");
    }
    return MakeBatchUnit(std::move(batch), 0);
  }

 private:
  std::string name_;
  SchemaPtr schema_;
  NextBatchFn next_;
  int64_t stored_bytes_;
};

}  // namespace

std::unique_ptr<Source> MakeCallbackSource(std::string name, SchemaPtr schema, NextBatchFn next, int64_t stored_bytes) {
  return std::make_unique<CallbackSource>(std::move(name), std::move(schema), std::move(next), stored_bytes);
}

std::unique_ptr<Source> MakeBatchSource(std::string name, SchemaPtr schema,
                                        std::shared_ptr<const std::vector<std::shared_ptr<RecordBatch>>> batches) {
  auto next = [batches = std::move(batches), i = size_t{0}]() mutable -> Result<std::shared_ptr<RecordBatch>> {
    if (i >= batches->size()) return std::shared_ptr<RecordBatch>();
    return (*batches)[i++];
  };
  return MakeCallbackSource(std::move(name), std::move(schema), std::move(next));
}

}  // namespace recflow
