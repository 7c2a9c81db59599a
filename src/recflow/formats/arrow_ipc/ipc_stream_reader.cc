// IpcStreamReader: schema conversion at open, then dictionary batches applied and record batches decoded in order.
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"

#include <utility>

namespace recflow::arrow_ipc {

Result<std::unique_ptr<IpcStreamReader>> IpcStreamReader::Open(std::unique_ptr<StreamReader> messages,
                                                               const IpcReadOptions& options) {
  RETURN_NOT_OK(options.Validate());
  const Message& schema_message = messages->schema_message();
  ASSIGN_OR_RETURN(DecodingSchema schema,
                   DecodingSchema::Make(messages->schema(), schema_message.source_name, schema_message.offset));
  return std::unique_ptr<IpcStreamReader>(new IpcStreamReader(std::move(messages), std::move(schema), options));
}

Result<std::unique_ptr<IpcStreamReader>> IpcStreamReader::Open(std::unique_ptr<InputStream> in,
                                                               const IpcReadOptions& options) {
  ASSIGN_OR_RETURN(auto message_reader, MessageReader::FromStream(std::move(in)));
  ASSIGN_OR_RETURN(auto messages, StreamReader::Open(std::move(message_reader)));
  return Open(std::move(messages), options);
}

Result<std::unique_ptr<IpcStreamReader>> IpcStreamReader::Open(std::shared_ptr<Buffer> data, std::string name,
                                                               const IpcReadOptions& options) {
  ASSIGN_OR_RETURN(auto messages, StreamReader::Open(std::move(data), std::move(name)));
  return Open(std::move(messages), options);
}

Result<std::unique_ptr<IpcStreamReader>> IpcStreamReader::OpenFile(const std::string& path,
                                                                   const IpcReadOptions& options) {
  RETURN_NOT_OK(options.Validate());
  ASSIGN_OR_RETURN(auto messages, StreamReader::OpenFile(path, *options.file_system));
  return Open(std::move(messages), options);
}

Result<std::shared_ptr<RecordBatch>> IpcStreamReader::Next() {
  while (true) {
    ASSIGN_OR_RETURN(std::optional<BatchMessage> message, messages_->Next());
    if (!message) return std::shared_ptr<RecordBatch>();
    if (message->dictionary) {
      RETURN_NOT_OK(ApplyDictionaryBatch(schema_, *message, memo_, dictionaries_read_++, options_));
      continue;
    }
    ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch,
                     DecodeRecordBatch(schema_, *message, memo_, batches_read_, options_));
    ++batches_read_;
    return batch;
  }
}

}  // namespace recflow::arrow_ipc
