// BlockSource: stream reads, BOM skipping, and cutting at Chunker row boundaries.
#include "recflow/formats/csv/block_source_internal.h"

#include <algorithm>
#include <utility>

namespace recflow::csv {

BlockSource::BlockSource(std::unique_ptr<InputStream> in, const Dialect& dialect, int64_t block_size,
                         int64_t max_row_bytes)
    : in_(std::move(in)), chunker_(dialect), block_size_(block_size), max_row_bytes_(max_row_bytes) {}

Block BlockSource::Cut(int64_t length) {
  std::string rest = pending_.substr(static_cast<size_t>(length));
  pending_.resize(static_cast<size_t>(length));
  Block block;
  block.data = Buffer::FromString(std::move(pending_));
  block.offset = offset_;
  block.first_line = next_line_;
  pending_ = std::move(rest);
  offset_ += length;
  next_line_ = chunker_.newlines_at_last_row_end() + 1;
  return block;
}

Result<std::optional<Block>> BlockSource::Next() {
  while (!at_end_) {
    // The first read takes at least 3 bytes so that a BOM is seen whole.
    const int64_t want = started_ ? block_size_ : std::max<int64_t>(block_size_, 3);
    const size_t old_size = pending_.size();
    pending_.resize(old_size + static_cast<size_t>(want));
    ASSIGN_OR_RETURN(const int64_t got, ReadFully(*in_, pending_.data() + old_size, want));
    pending_.resize(old_size + static_cast<size_t>(got));
    size_t scan_from = old_size;
    if (!started_) {
      started_ = true;
      if (pending_.compare(0, 3, "\xEF\xBB\xBF") == 0) {
        pending_.erase(0, 3);
        offset_ = 3;
      }
      scan_from = 0;
    }
    if (got < want) at_end_ = true;
    const int64_t end = chunker_.Scan(std::string_view(pending_).substr(scan_from));
    if (end >= 0) return Cut(static_cast<int64_t>(scan_from) + end);
    if (static_cast<int64_t>(pending_.size()) > max_row_bytes_) {
      return Status::DataError("row longer than max_row_bytes (" + std::to_string(max_row_bytes_) +
                               "); an unclosed quote?")
          .WithFile(in_->name())
          .WithOffset(offset_);
    }
  }
  if (pending_.empty()) return std::optional<Block>();
  return Cut(static_cast<int64_t>(pending_.size()));
}

}  // namespace recflow::csv
