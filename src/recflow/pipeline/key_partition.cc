// KeyPartitionFn: keys encoded as a grouping encodes them, hashed with XXH64, reduced modulo the partition count.
#include "recflow/pipeline/key_partition.h"

#include "recflow/columnar/builder.h"
#include "recflow/ops/columns/xxhash64.h"
#include "recflow/pipeline/grouping_internal.h"

namespace recflow::pipeline {

namespace {

class KeyPartitionFn final : public DoFn {
 public:
  KeyPartitionFn(std::vector<std::string> keys, int partitions) : keys_(std::move(keys)), partitions_(partitions) {}

  Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override {
    if (partitions_ < 1) return Status::InvalidArgument("an exchange needs at least one partition");
    if (input->GetFieldIndex(kKeyPartitionColumn) >= 0) {
      return Status::InvalidArgument(std::string("the rows already have a column ") + kKeyPartitionColumn);
    }
    for (const std::string& key : keys_) {
      if (input->GetFieldIndex(key) < 0) return Status::InvalidArgument("no key column '" + key + "'");
    }
    std::vector<FieldPtr> fields = input->fields();
    fields.push_back(Field::Make(kKeyPartitionColumn, int32(), false));
    return Schema::Make(std::move(fields));
  }

  Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext& ctx) const override {
    std::vector<const ArrayData*> keys;
    for (const std::string& key : keys_) keys.push_back(input.column_data(input.schema()->GetFieldIndex(key)).get());
    NumericBuilder<int32_t> partition;
    RETURN_NOT_OK(partition.Reserve(input.num_rows()));
    std::string encoded;
    for (int64_t row = 0; row < input.num_rows(); ++row) {
      encoded.clear();
      for (const ArrayData* key : keys) EncodeKeyValue(*key, row, &encoded);
      partition.UnsafeAppend(keys.empty() ? 0 : static_cast<int32_t>(ops::XxHash64(encoded) % static_cast<uint64_t>(partitions_)));
    }
    std::vector<std::shared_ptr<ArrayData>> columns;
    for (int c = 0; c < input.num_columns(); ++c) columns.push_back(input.column_data(c));
    ASSIGN_OR_RETURN(auto numbers, partition.Finish());
    columns.push_back(std::move(numbers));
    ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(ctx.output_schema(), input.num_rows(), std::move(columns)));
    return DoFnOutput{std::move(batch), {}};
  }

 private:
  std::vector<std::string> keys_;
  int partitions_;
};

}  // namespace

std::shared_ptr<const DoFn> MakeKeyPartitionFn(std::vector<std::string> keys, int partitions) {
  return std::make_shared<KeyPartitionFn>(std::move(keys), partitions);
}

}  // namespace recflow::pipeline
