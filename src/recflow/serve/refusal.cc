// Refusal: a field-less schema with the reason in its metadata, then end-of-stream (IpcWriter into memory).
#include "recflow/serve/refusal.h"

#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"

namespace recflow::serve {

Result<std::shared_ptr<Buffer>> EncodeRefusal(const std::string& reason) {
  auto metadata = std::make_shared<KeyValueMetadata>();
  metadata->Set(std::string(kErrorMetadataKey), reason);
  BufferOutputStream out;
  ASSIGN_OR_RETURN(auto writer, arrow_ipc::IpcWriter::OpenStream(&out, Schema::Make({}, std::move(metadata)),
                                                                 arrow_ipc::IpcWriteOptions::Defaults()));
  RETURN_NOT_OK(writer->Finish());
  return out.Finish();
}

Status RefusalOf(const Schema& schema, std::string_view endpoint) {
  if (schema.metadata() == nullptr) return Status::OK();
  const std::optional<std::string> reason = schema.metadata()->Get(kErrorMetadataKey);
  if (!reason.has_value()) return Status::OK();
  return Status::IOError(std::string(endpoint) + ": refused by the server: " + *reason);
}

}  // namespace recflow::serve
