// Interop test helpers: infer, decode and encode whole record sets (TFRecord files read by tfrecord::ReadRecords).
#include "interop_util.h"

#include "recflow/formats/example/decoder.h"
#include "recflow/formats/example/encoder.h"
#include "recflow/formats/example/schema_inference.h"

namespace recflow::interop {

Result<SchemaPtr> InferSchema(const std::vector<std::string>& records, example::RecordType type) {
  example::SchemaInferrer inferrer(type);
  for (size_t i = 0; i < records.size(); ++i) {
    Status st = inferrer.Observe(records[i]);
    if (!st.ok()) return st.WithRecord(static_cast<int64_t>(i));
  }
  return inferrer.Finish();
}

Result<std::shared_ptr<RecordBatch>> DecodeAll(const std::vector<std::string>& records, const SchemaPtr& schema,
                                               example::RecordType type) {
  ASSIGN_OR_RETURN(auto decoder, example::Decoder::Make(schema, type));
  for (size_t i = 0; i < records.size(); ++i) {
    Status st = decoder->Append(records[i]);
    if (!st.ok()) return st.WithRecord(static_cast<int64_t>(i));
  }
  return decoder->Finish();
}

Result<std::vector<std::string>> EncodeAll(const RecordBatch& batch, example::RecordType type) {
  ASSIGN_OR_RETURN(auto encoder, example::Encoder::Make(batch.schema(), type));
  std::vector<std::string> records(static_cast<size_t>(batch.num_rows()));
  for (int64_t row = 0; row < batch.num_rows(); ++row) {
    Status st = encoder->Encode(batch, row, &records[static_cast<size_t>(row)]);
    if (!st.ok()) return st.WithRecord(row);
  }
  return records;
}

}  // namespace recflow::interop
