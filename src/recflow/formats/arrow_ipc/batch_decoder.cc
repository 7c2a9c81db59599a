// DecodeRecordBatch / ApplyDictionaryBatch: an ArrayLoader walk per batch, then ValidateFull, with errors naming the batch.
#include "recflow/formats/arrow_ipc/batch_decoder.h"

#include <string>
#include <string_view>
#include <utility>

#include "recflow/columnar/validate.h"
#include "recflow/formats/arrow_ipc/array_loader_internal.h"
#include "recflow/formats/arrow_ipc/batch_layout.h"
#include "recflow/formats/arrow_ipc/body_reader_internal.h"

namespace recflow::arrow_ipc {
namespace {

/// `status` as a DataError (out-of-memory stays itself) in `name` that names `what`, at the byte
/// offset `status` found (a buffer's), else at `offset`, keeping the column it names.
Status Located(const Status& status, const std::string& name, int64_t offset, const std::string& what) {
  std::string text = status.message();
  constexpr std::string_view kPrefix = "arrow ipc: ";
  if (text.starts_with(kPrefix)) text.erase(0, kPrefix.size());
  const StatusCode code = status.code() == StatusCode::kOutOfMemory ? status.code() : StatusCode::kDataError;
  const ErrorContext& where = status.context();
  const int64_t at = where.offset >= 0 ? where.offset : offset;
  Status out = Status(code, "arrow ipc: " + what + ": " + text).WithFile(name).WithOffset(at);
  return where.field.empty() ? out : out.WithField(where.field);
}

/// `status` located at the message, naming the batch (`what`).
Status InBatch(const Status& status, const Message& message, const std::string& what) {
  return Located(status, message.source_name, message.offset, what);
}

Status CheckAllConsumed(const ArrayLoader& loader, const Message& message) {
  if (loader.AllConsumed()) return Status::OK();
  return message.Error("the batch has field nodes or buffers its fields do not use", message.offset);
}

Result<std::shared_ptr<RecordBatch>> DecodeRecordBatchImpl(const DecodingSchema& schema, const BatchMessage& batch,
                                                           const DictionaryMemo& memo, const IpcReadOptions& options) {
  const RecordBatchDesc& desc = *batch.record_batch;
  RETURN_NOT_OK(CheckDecompressedSize(batch.message, desc, options.max_decompressed_batch_bytes));
  ArrayLoader loader(batch.message, desc, schema.desc.endianness, memo);
  std::vector<std::shared_ptr<ArrayData>> columns;
  const SchemaPtr& fields = schema.converted.schema;
  for (int i = 0; i < fields->num_fields(); ++i) {
    ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> column,
                     loader.Load(schema.desc.fields[static_cast<size_t>(i)], fields->field(i)->type()));
    columns.push_back(std::move(column));
  }
  RETURN_NOT_OK(CheckAllConsumed(loader, batch.message));
  ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> out, RecordBatch::Make(fields, desc.length, std::move(columns)));
  RETURN_NOT_OK(out->ValidateFull());
  return out;
}

Result<std::shared_ptr<ArrayData>> DecodeDictionaryImpl(const DecodingSchema& schema, const BatchMessage& batch,
                                                        const DictionaryMemo& memo, const IpcReadOptions& options) {
  const DictionaryBatchDesc& desc = *batch.dictionary;
  RETURN_NOT_OK(CheckDecompressedSize(batch.message, desc.data, options.max_decompressed_batch_bytes));
  ASSIGN_OR_RETURN(const FieldDesc values, DictionaryValueField(schema.desc, desc.id, batch.message));
  const auto type = schema.converted.dictionary_value_types.find(desc.id);
  if (type == schema.converted.dictionary_value_types.end()) {
    return batch.message.Error("dictionary id " + std::to_string(desc.id) + " is not in the schema",
                               batch.message.offset);
  }
  ArrayLoader loader(batch.message, desc.data, schema.desc.endianness, memo);
  ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> array, loader.Load(values, type->second));
  RETURN_NOT_OK(CheckAllConsumed(loader, batch.message));
  if (array->length != desc.data.length) {
    return batch.message.Error("dictionary values have " + std::to_string(array->length) + " slots, the batch says " +
                                   std::to_string(desc.data.length),
                               batch.message.offset);
  }
  RETURN_NOT_OK(ValidateFull(*array));
  return array;
}

}  // namespace

Result<DecodingSchema> DecodingSchema::Make(SchemaDesc desc, const std::string& source_name, int64_t offset) {
  auto converted = ConvertSchema(desc);
  if (!converted.ok()) return Located(converted.status(), source_name, offset, "schema");
  return DecodingSchema{std::move(desc), std::move(converted).ValueUnsafe()};
}

Result<std::shared_ptr<RecordBatch>> DecodeRecordBatch(const DecodingSchema& schema, const BatchMessage& batch,
                                                       const DictionaryMemo& memo, int64_t batch_index,
                                                       const IpcReadOptions& options) {
  if (!batch.record_batch) return Status::InvalidArgument("DecodeRecordBatch: not a record batch message");
  auto out = DecodeRecordBatchImpl(schema, batch, memo, options);
  if (!out.ok()) return InBatch(out.status(), batch.message, "record batch " + std::to_string(batch_index));
  return out;
}

Status ApplyDictionaryBatch(const DecodingSchema& schema, const BatchMessage& batch, DictionaryMemo& memo,
                            int64_t dictionary_index, const IpcReadOptions& options) {
  if (!batch.dictionary) return Status::InvalidArgument("ApplyDictionaryBatch: not a dictionary batch message");
  const std::string what = "dictionary batch " + std::to_string(dictionary_index);
  auto values = DecodeDictionaryImpl(schema, batch, memo, options);
  if (!values.ok()) return InBatch(values.status(), batch.message, what);
  Status st = memo.Add(batch.dictionary->id, std::move(values).ValueUnsafe(), batch.dictionary->is_delta);
  return st.ok() ? st : InBatch(st, batch.message, what);
}

}  // namespace recflow::arrow_ipc
