// MessageReader: reads encapsulated Arrow IPC messages (framing + verified metadata + body) one by one.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "recflow/core/buffer.h"
#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/framing.h"
#include "recflow/formats/arrow_ipc/message.h"

namespace recflow::arrow_ipc {

class ByteSource;

/// Limits of a MessageReader.
struct MessageReaderOptions {
  /// Largest metadata flatbuffer accepted.
  int64_t max_metadata_bytes = kMaxMetadataBytes;
  /// Largest message body accepted.
  int64_t max_body_bytes = int64_t{1} << 40;

  static MessageReaderOptions Defaults() { return {}; }
  /// InvalidArgument unless both limits are positive.
  Status Validate() const;
};

/// Reads messages front to back: 0xFFFFFFFF + int32 length (or, before Arrow 0.15, a bare int32
/// length), the Message flatbuffer, then Message.bodyLength body bytes. A zero length is the
/// end-of-stream marker. Every malformed or truncated message is a DataError naming the input
/// and the byte offset; no allocation exceeds the bytes present by more than kStreamReadChunk.
class MessageReader {
 public:
  /// Reads from `data` without copying it (bodies are slices of `data`). `base_offset` is added
  /// to every reported offset (for a reader over a slice of a file).
  static Result<std::unique_ptr<MessageReader>> FromBuffer(
      std::shared_ptr<Buffer> data, std::string name, int64_t base_offset = 0,
      const MessageReaderOptions& options = MessageReaderOptions::Defaults());
  /// Reads from `in` (which the reader owns).
  static Result<std::unique_ptr<MessageReader>> FromStream(
      std::unique_ptr<InputStream> in, const MessageReaderOptions& options = MessageReaderOptions::Defaults());

  ~MessageReader();
  MessageReader(const MessageReader&) = delete;
  MessageReader& operator=(const MessageReader&) = delete;

  /// The next message; std::nullopt at the end-of-stream marker or where the input ends cleanly
  /// (between messages). After the end, further calls return std::nullopt.
  Result<std::optional<Message>> Next();

  /// Input offset of the next message.
  int64_t position() const;
  /// The input's name.
  const std::string& name() const;
  /// True once the end-of-stream marker (a zero length) was read.
  bool saw_end_of_stream_marker() const { return saw_eos_marker_; }

 private:
  MessageReader(std::unique_ptr<ByteSource> source, const MessageReaderOptions& options);
  Status Error(const std::string& what, int64_t at) const;
  Result<std::optional<Message>> ReadOne();

  std::unique_ptr<ByteSource> source_;
  MessageReaderOptions options_;
  bool done_ = false;
  bool saw_eos_marker_ = false;
};

/// Verifies `metadata` (8-byte aligned) as a Message flatbuffer and fills a Message from it
/// (everything but the framing fields and the body). DataError names `name` and `offset`.
Result<Message> ParseMessageMetadata(std::shared_ptr<Buffer> metadata, const std::string& name, int64_t offset);

}  // namespace recflow::arrow_ipc
