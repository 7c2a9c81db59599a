// TfrecordOutputFormat and its encoder: columns as features (example::FeatureColumns), example::Encoder output framed with framing.h.
#include "recflow/formats/tfrecord/tfrecord_output_format.h"

#include <numeric>
#include <string>

#include "recflow/columnar/take.h"
#include "recflow/formats/encode_rows.h"
#include "recflow/formats/example/encoder.h"
#include "recflow/formats/tfrecord/framing.h"

namespace recflow::tfrecord {
namespace {

/// True when `rows` are 0, 1, ..., `n` - 1.
bool AllInOrder(std::span<const int64_t> rows, int64_t n) {
  if (static_cast<int64_t>(rows.size()) != n) return false;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

class TfrecordEncoder final : public RecordEncoder {
 public:
  TfrecordEncoder(std::shared_ptr<const example::FeatureColumns> features, SchemaPtr schema,
                  std::unique_ptr<example::Encoder> encoder)
      : features_(std::move(features)), schema_(std::move(schema)), encoder_(std::move(encoder)) {}

  Status Encode(const RecordBatch& batch, std::span<const int64_t> rows, EncodedRecords* out) override {
    if (features_->identity()) return EncodeFeatures(batch, rows, out);
    RETURN_NOT_OK(CheckBatchSchema(*schema_, batch));
    for (const int64_t row : rows) RETURN_NOT_OK(CheckRowInBatch(row, batch).WithRecord(row));
    // The rows asked for, converted to features, encoded in order; errors name the row asked for.
    std::shared_ptr<RecordBatch> picked;
    if (AllInOrder(rows, batch.num_rows())) {
      ASSIGN_OR_RETURN(picked, features_->Convert(batch));
    } else {
      ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> taken, TakeRows(batch, rows));
      ASSIGN_OR_RETURN(picked, features_->Convert(*taken));
    }
    std::vector<int64_t> in_order(rows.size());
    std::iota(in_order.begin(), in_order.end(), 0);
    Status st = EncodeFeatures(*picked, in_order, out);
    const int64_t record = st.context().record;
    if (record >= 0 && record < static_cast<int64_t>(rows.size())) st = st.RebaseRecord(rows[record] - record);
    return st;
  }

  int64_t narrowed_doubles() const override { return encoder_->stats().narrowed_doubles - discarded_narrowed_; }

 private:
  /// Encodes `rows` of `batch`, whose columns are the features.
  Status EncodeFeatures(const RecordBatch& batch, std::span<const int64_t> rows, EncodedRecords* out) {
    const int64_t narrowed_before = encoder_->stats().narrowed_doubles;
    Status st = EncodeRows(*encoder_->schema(), batch, rows, out, [&](int64_t row) {
      // example::Encoder replaces its output, so each record is serialized into scratch_ and
      // copied once into its frame.
      RETURN_NOT_OK(encoder_->Encode(batch, row, &scratch_));
      RETURN_NOT_OK(CheckRecordLength(scratch_.size()));
      AppendFramedRecord(scratch_, &out->bytes);
      return Status::OK();
    });
    // Rows of a failed call are not in `out`, so their narrowed doubles do not count.
    if (!st.ok()) discarded_narrowed_ += encoder_->stats().narrowed_doubles - narrowed_before;
    return st;
  }

  std::shared_ptr<const example::FeatureColumns> features_;
  SchemaPtr schema_;  // the columns' (the features' when they are the same)
  std::unique_ptr<example::Encoder> encoder_;
  std::string scratch_;
  int64_t discarded_narrowed_ = 0;
};

class TfrecordOutputFormat final : public OutputFormat {
 public:
  TfrecordOutputFormat(SchemaPtr schema, example::RecordType type, example::FeatureColumns features)
      : schema_(std::move(schema)),
        type_(type),
        features_(std::make_shared<const example::FeatureColumns>(std::move(features))) {}

  std::string name() const override { return "tfrecord"; }
  std::string suffix() const override { return ".tfrecord"; }
  Result<std::unique_ptr<RecordEncoder>> NewEncoder() const override {
    ASSIGN_OR_RETURN(auto encoder, example::Encoder::Make(features_->schema(), type_));
    return std::unique_ptr<RecordEncoder>(new TfrecordEncoder(features_, schema_, std::move(encoder)));
  }

 private:
  SchemaPtr schema_;
  example::RecordType type_;
  std::shared_ptr<const example::FeatureColumns> features_;
};

}  // namespace

Result<std::shared_ptr<const OutputFormat>> MakeTfrecordOutputFormat(SchemaPtr schema, example::RecordType type,
                                                                     const example::FeatureOptions& options) {
  ASSIGN_OR_RETURN(example::FeatureColumns features, example::FeatureColumns::Make(schema, type, options));
  RETURN_NOT_OK(example::Encoder::Make(features.schema(), type).status());
  return std::shared_ptr<const OutputFormat>(
      std::make_shared<TfrecordOutputFormat>(std::move(schema), type, std::move(features)));
}

}  // namespace recflow::tfrecord
