// StreamReader: schema message first, then batch messages until the end-of-stream marker.
#include "recflow/formats/arrow_ipc/stream_reader.h"

#include "recflow/core/io.h"

namespace recflow::arrow_ipc {

Result<std::unique_ptr<StreamReader>> StreamReader::Open(std::unique_ptr<MessageReader> messages) {
  const int64_t start = messages->position();
  ASSIGN_OR_RETURN(std::optional<Message> first, messages->Next());
  if (!first) {
    return Status::DataError("arrow ipc: stream ends before its schema message")
        .WithFile(messages->name())
        .WithOffset(start);
  }
  ASSIGN_OR_RETURN(SchemaDesc schema, ReadSchema(*first));
  return std::unique_ptr<StreamReader>(new StreamReader(std::move(messages), std::move(*first), std::move(schema)));
}

Result<std::unique_ptr<StreamReader>> StreamReader::Open(std::shared_ptr<Buffer> data, std::string name) {
  ASSIGN_OR_RETURN(auto messages, MessageReader::FromBuffer(std::move(data), std::move(name)));
  return Open(std::move(messages));
}

Result<std::unique_ptr<StreamReader>> StreamReader::OpenFile(const std::string& path, FileSystem& fs) {
  ASSIGN_OR_RETURN(std::unique_ptr<InputStream> in, OpenInputFile(fs, path));
  ASSIGN_OR_RETURN(auto messages, MessageReader::FromStream(std::move(in)));
  return Open(std::move(messages));
}

Result<std::optional<BatchMessage>> StreamReader::Next() {
  ASSIGN_OR_RETURN(std::optional<Message> message, messages_->Next());
  if (!message) return std::optional<BatchMessage>();
  ASSIGN_OR_RETURN(BatchMessage batch, DescribeBatchMessage(schema_, std::move(*message)));
  return std::optional<BatchMessage>(std::move(batch));
}

}  // namespace recflow::arrow_ipc
