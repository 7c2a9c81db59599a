// TfrecordOutputFormat and its encoder: example::Encoder output framed with framing.h.
#include "recflow/formats/tfrecord/tfrecord_output_format.h"

#include <string>

#include "recflow/formats/encode_rows.h"
#include "recflow/formats/example/encoder.h"
#include "recflow/formats/tfrecord/framing.h"

namespace recflow::tfrecord {
namespace {

class TfrecordEncoder final : public RecordEncoder {
 public:
  explicit TfrecordEncoder(std::unique_ptr<example::Encoder> encoder) : encoder_(std::move(encoder)) {}

  Status Encode(const RecordBatch& batch, std::span<const int64_t> rows, EncodedRecords* out) override {
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

  int64_t narrowed_doubles() const override { return encoder_->stats().narrowed_doubles - discarded_narrowed_; }

 private:
  std::unique_ptr<example::Encoder> encoder_;
  std::string scratch_;
  int64_t discarded_narrowed_ = 0;
};

class TfrecordOutputFormat final : public OutputFormat {
 public:
  TfrecordOutputFormat(SchemaPtr schema, example::RecordType type) : schema_(std::move(schema)), type_(type) {}

  std::string name() const override { return "tfrecord"; }
  std::string suffix() const override { return ".tfrecord"; }
  Result<std::unique_ptr<RecordEncoder>> NewEncoder() const override {
    ASSIGN_OR_RETURN(auto encoder, example::Encoder::Make(schema_, type_));
    return std::unique_ptr<RecordEncoder>(new TfrecordEncoder(std::move(encoder)));
  }

 private:
  SchemaPtr schema_;
  example::RecordType type_;
};

}  // namespace

Result<std::shared_ptr<const OutputFormat>> MakeTfrecordOutputFormat(SchemaPtr schema, example::RecordType type) {
  RETURN_NOT_OK(example::Encoder::Make(schema, type).status());
  return std::shared_ptr<const OutputFormat>(std::make_shared<TfrecordOutputFormat>(std::move(schema), type));
}

}  // namespace recflow::tfrecord
