// Encoding whole Arrow IPC messages: schema, record batch after its dictionary batches, end of stream, file footer.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/io.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/dictionary_plan_internal.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"

namespace recflow::arrow_ipc {

/// An encapsulated message: continuation marker, int32 metadata length, the metadata padded to
/// 8 bytes, then the body. The body is kept as pieces that point into the encoded arrays'
/// buffers (written without a copy: use the message while those arrays live) and into `owned`.
struct EncodedMessage {
  std::string metadata;                ///< marker, length and padded flatbuffer
  std::vector<std::string_view> body;  ///< the body's pieces, in order
  std::deque<std::string> owned;       ///< bytes some pieces point into
  std::vector<std::shared_ptr<ArrayData>> made;  ///< arrays made for the message that pieces point into
  int64_t metadata_length = 0;         ///< bytes before the body (marker and length included)
  int64_t body_length = 0;

  EncodedMessage() = default;
  EncodedMessage(EncodedMessage&&) = default;
  EncodedMessage& operator=(EncodedMessage&&) = default;
  /// Not copyable: the copy's pieces would still point into the original's `owned`.
  EncodedMessage(const EncodedMessage&) = delete;
  EncodedMessage& operator=(const EncodedMessage&) = delete;

  /// Appends the message's pieces (metadata, then the body's) to `pieces`.
  void AppendPieces(std::vector<std::string_view>* pieces) const;
};

/// Where a message sits in a file, for the footer.
struct MessageBlock {
  int64_t offset = 0;
  int64_t metadata_length = 0;
  int64_t body_length = 0;
};

/// The schema message of `schema` (V5, little-endian, dictionary ids in depth-first order).
std::string EncodeSchemaMessage(const Schema& schema);

/// A record batch message after the dictionary batch messages it needs, to write in order.
struct EncodedBatchMessages {
  std::vector<EncodedMessage> messages;         ///< the dictionary batches, then the record batch
  std::vector<MessageBlock> dictionary_blocks;  ///< each dictionary batch, offsets from the first message
  MessageBlock batch_block;                     ///< the record batch, likewise

  /// Appends the pieces of all the messages, in order, to `pieces` (they point into the messages
  /// and the arrays encoded: write them while both live).
  void AppendPieces(std::vector<std::string_view>* pieces) const;
  /// Bytes of all the messages.
  int64_t size() const { return batch_block.offset + batch_block.metadata_length + batch_block.body_length; }
};

/// Writes the pieces of every message of `batches`, in order, to `out` in one gathered write
/// (OutputStream::WriteGathered: the bodies go from the arrays to the file or socket uncopied).
/// Every writer of IPC batches writes them through this.
Status WriteBatches(std::span<const EncodedBatchMessages> batches, OutputStream* out);

/// The dictionary batch messages of `updates` (in order), then the record batch message of
/// `columns` (`length` rows), bodies compressed as `options` say. The messages point into the
/// arrays' buffers: use them while `updates` and `columns` live.
Result<EncodedBatchMessages> EncodeBatch(std::span<const DictionaryUpdate> updates,
                                         const std::vector<const ArrayData*>& columns, int64_t length,
                                         const IpcWriteOptions& options);

/// EncodeBatch of all the columns of `batch`, after the dictionary batches of `updates`.
Result<EncodedBatchMessages> EncodeBatch(std::span<const DictionaryUpdate> updates, const RecordBatch& batch,
                                         const IpcWriteOptions& options);

/// The end-of-stream marker (continuation marker and a zero length).
std::string EncodeEndOfStream();

/// The file format's tail: footer flatbuffer (schema and blocks), its int32 length and the magic.
std::string EncodeFileFooter(const Schema& schema, const std::vector<MessageBlock>& dictionaries,
                             const std::vector<MessageBlock>& record_batches);

/// The file format's head: the magic padded to 8 bytes.
std::string EncodeFileMagic();

}  // namespace recflow::arrow_ipc
