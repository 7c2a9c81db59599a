// DescribeBatchMessage: batch header descriptor + layout check against the schema.
#include "recflow/formats/arrow_ipc/batch_message.h"

#include <span>
#include <string>

namespace recflow::arrow_ipc {

Result<BatchMessage> DescribeBatchMessage(const SchemaDesc& schema, Message message) {
  if (message.version < MetadataVersion::kV4) {
    return message.Error("metadata version " + std::string(MetadataVersionName(message.version)) +
                             " (before Arrow 0.8) is not supported",
                         message.offset);
  }
  BatchMessage out;
  if (message.type == MessageType::kRecordBatch) {
    ASSIGN_OR_RETURN(out.record_batch, ReadRecordBatch(message));
    ASSIGN_OR_RETURN(out.layout, CheckBatchLayout(schema.fields, *out.record_batch, message));
  } else if (message.type == MessageType::kDictionaryBatch) {
    ASSIGN_OR_RETURN(out.dictionary, ReadDictionaryBatch(message));
    ASSIGN_OR_RETURN(const FieldDesc values, DictionaryValueField(schema, out.dictionary->id, message));
    ASSIGN_OR_RETURN(out.layout, CheckBatchLayout(std::span<const FieldDesc>(&values, 1), out.dictionary->data, message));
  } else {
    return message.Error("unexpected " + std::string(MessageTypeName(message.type)) + " message", message.offset);
  }
  out.message = std::move(message);
  return out;
}

}  // namespace recflow::arrow_ipc
