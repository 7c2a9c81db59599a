// SplicedInputStream::Read and SpliceRange: the head, then the range, as one stream.
#include "recflow/formats/spliced_stream.h"

#include <algorithm>
#include <cstring>

namespace recflow::formats {

Result<int64_t> SplicedInputStream::Read(void* out, int64_t n) {
  const int64_t total = head_size_ + (end_ - begin_);
  const int64_t take = std::min(n, total - position_);
  if (take <= 0) return 0;
  // Only the head part, or only the range part, per call: a short read is allowed.
  const int64_t from = position_ < head_size_ ? position_ : begin_ + (position_ - head_size_);
  const int64_t limit = position_ < head_size_ ? head_size_ - position_ : take;
  const int64_t count = std::min(take, limit);
  std::memcpy(out, data_->data() + from, static_cast<size_t>(count));
  position_ += count;
  return count;
}

std::unique_ptr<SplicedInputStream> SpliceRange(std::shared_ptr<Buffer> data, std::string name, int64_t head_size,
                                                int64_t begin, int64_t end) {
  if (begin <= head_size) {
    return std::make_unique<SplicedInputStream>(std::move(data), std::move(name), 0, 0, std::max(end, head_size));
  }
  return std::make_unique<SplicedInputStream>(std::move(data), std::move(name), head_size, begin, end);
}

}  // namespace recflow::formats
