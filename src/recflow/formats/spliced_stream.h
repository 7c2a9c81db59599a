// SplicedInputStream: a file's head then one byte range of it (one split's records), from a mapped buffer, offsets mapped back.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "recflow/core/buffer.h"
#include "recflow/core/io.h"

namespace recflow::formats {

/// Where a byte of the spliced stream was in the file: offsets from head_size on are shifted.
struct SpliceMap {
  /// Bytes of the file's head at the stream's start (the CSV header row, the Avro header).
  int64_t head_size = 0;
  /// File offset minus stream offset for the bytes after the head.
  int64_t delta = 0;
  /// `st` with its byte offset (an offset in the stream) turned into the file's.
  Status ToFile(const Status& st) const { return st.ShiftOffset(head_size, delta); }
};

/// Reads data[0, head_size) then data[begin, end) (zero-copy views of `data`, copied only into
/// the reader's buffer). Requires head_size <= begin <= end <= data->size().
class SplicedInputStream final : public InputStream {
 public:
  SplicedInputStream(std::shared_ptr<Buffer> data, std::string name, int64_t head_size, int64_t begin, int64_t end)
      : data_(std::move(data)), name_(std::move(name)), head_size_(head_size), begin_(begin), end_(end) {}
  Result<int64_t> Read(void* out, int64_t n) override;
  int64_t position() const override { return position_; }
  const std::string& name() const override { return name_; }
  /// The mapping of this stream's offsets to the file's.
  SpliceMap map() const { return {head_size_, begin_ - head_size_}; }

 private:
  std::shared_ptr<Buffer> data_;
  std::string name_;
  int64_t head_size_;
  int64_t begin_;
  int64_t end_;
  int64_t position_ = 0;
};

/// The file's bytes [begin, end) with its first `head_size` bytes in front (a range that begins
/// inside the head reads from the file's start to max(end, head_size)), as a stream named `name`.
std::unique_ptr<SplicedInputStream> SpliceRange(std::shared_ptr<Buffer> data, std::string name, int64_t head_size,
                                                int64_t begin, int64_t end);

}  // namespace recflow::formats
