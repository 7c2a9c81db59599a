// Names of metadata versions and message types, and the error helper of Message.
#include "recflow/formats/arrow_ipc/message.h"

namespace recflow::arrow_ipc {

std::string_view MetadataVersionName(MetadataVersion version) {
  switch (version) {
    case MetadataVersion::kV1: return "V1";
    case MetadataVersion::kV2: return "V2";
    case MetadataVersion::kV3: return "V3";
    case MetadataVersion::kV4: return "V4";
    case MetadataVersion::kV5: return "V5";
  }
  return "?";
}

std::string_view MessageTypeName(MessageType type) {
  switch (type) {
    case MessageType::kSchema: return "schema";
    case MessageType::kDictionaryBatch: return "dictionary batch";
    case MessageType::kRecordBatch: return "record batch";
    case MessageType::kTensor: return "tensor";
    case MessageType::kSparseTensor: return "sparse tensor";
  }
  return "?";
}

Status Message::Error(const std::string& what, int64_t at) const {
  return Status::DataError("arrow ipc: " + what).WithFile(source_name).WithOffset(at);
}

}  // namespace recflow::arrow_ipc
