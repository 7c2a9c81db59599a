// RecordBatchDesc / DictionaryBatchDesc: the headers of batch messages (nodes, buffers, compression), bounds-checked.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/message.h"

namespace recflow::arrow_ipc {

/// Length and null count of one array, in the pre-order walk of the fields.
struct FieldNodeDesc {
  /// Slots of the array.
  int64_t length = 0;
  /// Null slots (0 <= null_count <= length).
  int64_t null_count = 0;
  bool operator==(const FieldNodeDesc&) const = default;
};

/// A byte range of the message body.
struct BufferDesc {
  /// From the start of the body.
  int64_t offset = 0;
  /// Bytes (offset + length <= body size).
  int64_t length = 0;
  bool operator==(const BufferDesc&) const = default;
};

/// The codec of a compressed body (each buffer compressed on its own, prefixed by its
/// uncompressed length as an int64).
enum class CompressionCodec : uint8_t { kLz4Frame, kZstd };

/// "lz4_frame" or "zstd".
std::string_view CompressionCodecName(CompressionCodec codec);

/// A RecordBatch header. Every buffer lies inside the message body.
struct RecordBatchDesc {
  /// Rows.
  int64_t length = 0;
  /// One per array in the pre-order walk of the fields.
  std::vector<FieldNodeDesc> nodes;
  /// In the same walk; see BatchLayout for how many each type takes.
  std::vector<BufferDesc> buffers;
  /// Set when the body buffers are compressed.
  std::optional<CompressionCodec> compression;
  /// The data buffers of each binary_view / utf8_view array, in the walk's order (each >= 0).
  std::vector<int64_t> variadic_buffer_counts;
  bool operator==(const RecordBatchDesc&) const = default;
};

/// A DictionaryBatch header: the values of dictionary `id` as a one-column batch.
struct DictionaryBatchDesc {
  /// The DictionaryEncoding id of the fields it serves.
  int64_t id = 0;
  /// True when the values extend the dictionary instead of replacing it.
  bool is_delta = false;
  /// The values, a batch of one column.
  RecordBatchDesc data;
  bool operator==(const DictionaryBatchDesc&) const = default;
};

/// The header of `message` (type kRecordBatch). DataError (naming the input and offset) for a
/// negative length or count, a null count above its length, a buffer outside the body, an
/// unknown codec or compression method, or a negative variadic buffer count or more variadic
/// buffers than the batch has buffers.
Result<RecordBatchDesc> ReadRecordBatch(const Message& message);

/// The header of `message` (type kDictionaryBatch), checked as ReadRecordBatch checks.
Result<DictionaryBatchDesc> ReadDictionaryBatch(const Message& message);

}  // namespace recflow::arrow_ipc
