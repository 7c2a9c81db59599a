// JsonlOutputFormat and its encoder.
#include "recflow/formats/jsonl/jsonl_output_format.h"

#include "recflow/formats/encode_rows.h"
#include "recflow/formats/jsonl/row_json.h"

namespace recflow::jsonl {
namespace {

class JsonlEncoder final : public RecordEncoder {
 public:
  explicit JsonlEncoder(SchemaPtr schema) : schema_(std::move(schema)), renderer_(*schema_, /*sequence_example=*/false) {}

  Status Encode(const RecordBatch& batch, std::span<const int64_t> rows, EncodedRecords* out) override {
    // One writer per call: after a failed row it is mid-object, and the call ends there.
    JsonWriter writer(&out->bytes);
    return EncodeRows(*schema_, batch, rows, out, [&](int64_t row) {
      RETURN_NOT_OK(renderer_.Render(batch, row, &writer));
      out->bytes.push_back('\n');
      return Status::OK();
    });
  }

 private:
  SchemaPtr schema_;
  RowJsonRenderer renderer_;
};

class JsonlOutputFormat final : public OutputFormat {
 public:
  explicit JsonlOutputFormat(SchemaPtr schema) : schema_(std::move(schema)) {}

  std::string name() const override { return "jsonl"; }
  std::string suffix() const override { return ".jsonl"; }
  Result<std::unique_ptr<RecordEncoder>> NewEncoder() const override {
    return std::unique_ptr<RecordEncoder>(new JsonlEncoder(schema_));
  }

 private:
  SchemaPtr schema_;
};

}  // namespace

Result<std::shared_ptr<const OutputFormat>> MakeJsonlOutputFormat(SchemaPtr schema) {
  if (schema == nullptr) return Status::InvalidArgument("MakeJsonlOutputFormat: null schema");
  return std::shared_ptr<const OutputFormat>(std::make_shared<JsonlOutputFormat>(std::move(schema)));
}

}  // namespace recflow::jsonl
