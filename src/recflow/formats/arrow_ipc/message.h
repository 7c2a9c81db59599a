// Message: one encapsulated Arrow IPC message (verified metadata flatbuffer + body bytes).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "recflow/core/buffer.h"
#include "recflow/core/status.h"

namespace recflow::arrow_ipc {

/// The IPC metadata version a message or file footer declares.
enum class MetadataVersion : uint8_t { kV1 = 0, kV2, kV3, kV4, kV5 };

/// "V1" ... "V5".
std::string_view MetadataVersionName(MetadataVersion version);

/// What the header of a message holds.
enum class MessageType : uint8_t { kSchema = 1, kDictionaryBatch, kRecordBatch, kTensor, kSparseTensor };

/// "schema", "dictionary batch", "record batch", "tensor", "sparse tensor".
std::string_view MessageTypeName(MessageType type);

/// One encapsulated message. Its metadata flatbuffer has passed flatbuffers::Verifier, so the
/// descriptor functions (ReadSchema, ReadRecordBatch, ...) may read it directly.
struct Message {
  /// Message.version.
  MetadataVersion version = MetadataVersion::kV5;
  /// Message.header_type.
  MessageType type = MessageType::kSchema;
  /// Byte offset of the message's first byte (continuation marker or length) in the input.
  int64_t offset = 0;
  /// Prefix (4 or 8 bytes) + flatbuffer + padding: what a file Block calls metaDataLength.
  int64_t framed_metadata_size = 0;
  /// Byte offset of the body in the input.
  int64_t body_offset = 0;
  /// True for the pre-0.15 framing (a bare int32 length, no continuation marker).
  bool legacy_framing = false;
  /// The metadata flatbuffer (with its padding), 8-byte aligned in memory.
  std::shared_ptr<Buffer> metadata;
  /// The body: Message.bodyLength bytes.
  std::shared_ptr<Buffer> body;
  /// The input's name, for error messages.
  std::string source_name;

  /// A DataError "arrow ipc: <what>" naming the input and `offset`.
  Status Error(const std::string& what, int64_t at) const;
};

}  // namespace recflow::arrow_ipc
