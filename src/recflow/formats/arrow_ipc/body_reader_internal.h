// BodyReader: the buffers of a batch body in order — zero-copy slices, realigned, decompressed or byte-swapped as needed.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "recflow/core/buffer.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/batch_desc.h"
#include "recflow/formats/arrow_ipc/message.h"

namespace recflow::arrow_ipc {

/// How the bytes of a buffer group into values: what alignment reading them needs and which
/// integers a big-endian body reverses.
struct ValueShape {
  /// Bytes per value (a multiple of the parts' sum; 1 for bitmaps and bytes).
  int32_t size = 1;
  /// Widths of the integers making up one value, in order; empty = nothing to swap.
  std::array<int8_t, 3> parts{};
  int num_parts = 0;
  /// 16-byte binary views: the int32 size, and for a size above 12 the int32 buffer index and
  /// offset, are integers; inline bytes and the prefix are not (what swaps depends on the size).
  bool views = false;

  /// Bitmaps, bytes, union type ids: no alignment, never swapped.
  static ValueShape Bytes() { return {}; }
  /// Binary views.
  static ValueShape Views() { return {16, {4, 0, 0}, 1, true}; }
  /// One integer of `width` bytes per value (2..32: decimals swap as one integer).
  static ValueShape Word(int32_t width) { return {width, {static_cast<int8_t>(width), 0, 0}, 1}; }
  /// An interval's integers: days-time {4, 4}; months-days-nanoseconds {4, 4, 8}.
  static ValueShape Parts(std::array<int8_t, 3> parts, int num_parts);
  /// Alignment needed to read the values in place (the widest part, at most 8).
  int64_t alignment() const;
};

/// Hands out the buffers of one batch body in order. Each is a zero-copy slice of the body
/// when it can be: a buffer at an offset not aligned for its values is copied to an aligned
/// allocation, a compressed buffer is decompressed (at most `max_size` + 64 bytes), and a
/// big-endian body's values are copied and swapped to little-endian. Empty buffers are nullptr.
class BodyReader {
 public:
  /// Reads the buffers of `batch`, whose body is `message.body` (both must outlive the reader).
  BodyReader(const Message& message, const RecordBatchDesc& batch, bool big_endian)
      : message_(message), batch_(batch), big_endian_(big_endian) {}

  /// The next buffer, shaped as `shape`; `max_size` is the most bytes the layout can use
  /// (a larger uncompressed length is a DataError before anything is decompressed).
  Result<std::shared_ptr<Buffer>> Next(const ValueShape& shape, int64_t max_size);
  /// Buffers handed out so far.
  int64_t position() const { return next_; }

 private:
  Status Error(const std::string& what) const;

  const Message& message_;
  const RecordBatchDesc& batch_;
  bool big_endian_;
  int64_t next_ = 0;
};

/// Checks, before anything is decompressed, what the compressed buffers of `batch` (body in
/// `message`) declare they expand to: each uncompressed-length prefix must be 0 or more (-1:
/// stored uncompressed) and equal the content size its frame header states, if it states one;
/// the prefixes must sum to at most `max_bytes` (IpcReadOptions::max_decompressed_batch_bytes).
/// Anything else is a DataError at the message. OK for an uncompressed batch.
Status CheckDecompressedSize(const Message& message, const RecordBatchDesc& batch, int64_t max_bytes);

/// Bytes of `count` values of `width` bytes, saturating at INT64_MAX.
int64_t SaturatingBytes(int64_t count, int64_t width);

}  // namespace recflow::arrow_ipc
