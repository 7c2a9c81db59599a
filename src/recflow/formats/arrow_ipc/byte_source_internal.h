// ByteSource: the bytes under a MessageReader — a zero-copy Buffer or a chunked InputStream.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "recflow/core/buffer.h"
#include "recflow/core/io.h"
#include "recflow/core/result.h"

namespace recflow::arrow_ipc {

/// Bytes read front to back. Reads never allocate much more than the bytes that are present.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  /// Up to `n` bytes (fewer only at the end of the input). With `aligned`, the returned
  /// bytes start at an 8-byte aligned address (copied when the input's are not).
  virtual Result<std::shared_ptr<Buffer>> Read(int64_t n, bool aligned) = 0;
  /// Bytes consumed so far plus the base offset: the input offset of the next byte.
  virtual int64_t position() const = 0;
  /// The input's name for error messages.
  virtual const std::string& name() const = 0;

  /// Slices `data` (shared, not copied); offsets are reported as `base_offset` + position.
  static std::unique_ptr<ByteSource> FromBuffer(std::shared_ptr<Buffer> data, std::string name,
                                                int64_t base_offset);
  /// Reads `in` in pieces of at most kStreamReadChunk bytes.
  static std::unique_ptr<ByteSource> FromStream(std::unique_ptr<InputStream> in);
};

}  // namespace recflow::arrow_ipc
