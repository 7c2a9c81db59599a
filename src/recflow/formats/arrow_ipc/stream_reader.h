// StreamReader: walks an Arrow IPC stream — the schema message, then dictionary and record batch messages.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "recflow/core/buffer.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/batch_message.h"
#include "recflow/formats/arrow_ipc/message_reader.h"
#include "recflow/formats/arrow_ipc/schema_desc.h"

namespace recflow::arrow_ipc {

/// Reads the metadata of an IPC stream: the schema first, then each batch message (its header
/// checked against the schema) until the end-of-stream marker or the end of the data.
class StreamReader {
 public:
  /// Reads the schema message from `messages`. A stream that is empty or does not start with
  /// a schema is a DataError.
  static Result<std::unique_ptr<StreamReader>> Open(std::unique_ptr<MessageReader> messages);
  /// Open over an in-memory stream (zero-copy).
  static Result<std::unique_ptr<StreamReader>> Open(std::shared_ptr<Buffer> data, std::string name);
  /// Open over file `path` of `fs` ("-" is standard input), read as a stream.
  static Result<std::unique_ptr<StreamReader>> OpenFile(const std::string& path,
                                                        FileSystem& fs = *LocalFileSystem::Instance());

  /// The stream's schema.
  const SchemaDesc& schema() const { return schema_; }
  /// The schema message (its version, offset and framing).
  const Message& schema_message() const { return schema_message_; }

  /// The next dictionary or record batch; std::nullopt at the end of the stream.
  Result<std::optional<BatchMessage>> Next();
  /// Bytes of the stream read so far (the input offset of the next message).
  int64_t position() const { return messages_->position(); }

 private:
  StreamReader(std::unique_ptr<MessageReader> messages, Message schema_message, SchemaDesc schema)
      : messages_(std::move(messages)), schema_message_(std::move(schema_message)), schema_(std::move(schema)) {}

  std::unique_ptr<MessageReader> messages_;
  Message schema_message_;
  SchemaDesc schema_;
};

}  // namespace recflow::arrow_ipc
