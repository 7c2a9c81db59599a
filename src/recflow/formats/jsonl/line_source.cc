// LineSource: block reads, BOM skipping, LF/CRLF splitting and blank-line skipping.
#include "recflow/formats/jsonl/line_source_internal.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace recflow::jsonl {
namespace {

bool IsBlank(std::string_view s) {
  for (const char c : s) {
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

}  // namespace

const int64_t kLinePadding = simdjson::SIMDJSON_PADDING;

LineSource::LineSource(std::unique_ptr<InputStream> in, int64_t block_size, int64_t max_line_bytes)
    : in_(std::move(in)), block_size_(block_size), max_line_bytes_(max_line_bytes) {}

// Moves the unread bytes to the front and appends one block (the first read takes at least 3
// bytes so a BOM is seen whole), keeping kLinePadding spaces after the input bytes.
Status LineSource::Fill() {
  const size_t unread = size_ - begin_;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, unread);
    scanned_ -= begin_;
    begin_ = 0;
  }
  const int64_t want = started_ ? block_size_ : std::max<int64_t>(block_size_, 3);
  buffer_.resize(unread + static_cast<size_t>(want + kLinePadding));
  ASSIGN_OR_RETURN(const int64_t got, ReadFully(*in_, buffer_.data() + unread, want));
  size_ = unread + static_cast<size_t>(got);
  std::memset(buffer_.data() + size_, ' ', static_cast<size_t>(kLinePadding));
  if (got < want) at_end_ = true;
  if (!started_) {
    started_ = true;
    if (size_ >= 3 && std::memcmp(buffer_.data(), "\xEF\xBB\xBF", 3) == 0) {
      begin_ = scanned_ = 3;
      offset_ = 3;
    }
  }
  return Status::OK();
}

Status LineSource::TooLong() const {
  return Status::DataError("line " + std::to_string(next_line_) + " is longer than max_record_bytes (" +
                           std::to_string(max_line_bytes_) + ")")
      .WithFile(in_->name())
      .WithOffset(offset_);
}

Result<std::optional<Line>> LineSource::Next() {
  while (true) {
    const char* base = buffer_.data();
    const void* lf = scanned_ < size_ ? std::memchr(base + scanned_, '\n', size_ - scanned_) : nullptr;
    size_t end;       // end of the line's bytes
    size_t next;      // start of the following line
    if (lf != nullptr) {
      end = static_cast<size_t>(static_cast<const char*>(lf) - base);
      next = end + 1;
    } else if (at_end_) {
      if (begin_ == size_) return std::optional<Line>();
      end = next = size_;
    } else {
      scanned_ = size_;
      if (static_cast<int64_t>(size_ - begin_) > max_line_bytes_) {
        return TooLong();
      }
      RETURN_NOT_OK(Fill());
      continue;
    }
    if (static_cast<int64_t>(end - begin_) > max_line_bytes_) {
      return TooLong();
    }
    Line line;
    line.text = std::string_view(base + begin_, end - begin_);
    line.offset = offset_;
    line.number = next_line_++;
    offset_ += static_cast<int64_t>(next - begin_);
    begin_ = scanned_ = next;
    if (!line.text.empty() && line.text.back() == '\r') line.text.remove_suffix(1);
    if (!IsBlank(line.text)) return line;
  }
}

}  // namespace recflow::jsonl
