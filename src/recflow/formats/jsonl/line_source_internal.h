// LineSource: splits a JSON Lines stream into non-blank lines, padded for simdjson, in bounded memory.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "recflow/core/io.h"
#include "recflow/core/result.h"

namespace recflow::jsonl {

/// One non-blank line of the input, without its LF or CRLF terminator.
struct Line {
  /// The line's bytes. At least kLinePadding readable bytes follow them (simdjson's padding);
  /// valid until the next call on the LineSource that returned it.
  std::string_view text;
  /// Byte offset of text[0] in the (decompressed) input; a skipped BOM counts.
  int64_t offset = 0;
  /// 1-based line number (blank lines counted).
  int64_t number = 0;
};

/// Readable bytes guaranteed after every Line::text (simdjson::SIMDJSON_PADDING).
extern const int64_t kLinePadding;

/// Reads `block_size` bytes at a time, skips a leading UTF-8 BOM and lines holding only
/// spaces, tabs or CR, and returns the others one by one. Memory: one block plus the longest
/// line, bounded by `max_line_bytes`.
class LineSource {
 public:
  /// Reads `in` (sizes validated by ReadOptions::Validate).
  LineSource(std::unique_ptr<InputStream> in, int64_t block_size, int64_t max_line_bytes);

  /// The next non-blank line, or nullopt at the end of the input. A line longer than
  /// `max_line_bytes` is a DataError.
  Result<std::optional<Line>> Next();

 private:
  Status Fill();
  Status TooLong() const;

  std::unique_ptr<InputStream> in_;
  int64_t block_size_;
  int64_t max_line_bytes_;
  std::string buffer_;  // input bytes [begin_, size) unread, followed by kLinePadding spaces
  size_t begin_ = 0;
  size_t size_ = 0;      // end of the input bytes in buffer_
  size_t scanned_ = 0;   // buffer_[begin_, scanned_) holds no LF
  int64_t offset_ = 0;   // input offset of buffer_[begin_]
  int64_t next_line_ = 1;
  bool started_ = false;
  bool at_end_ = false;
};

}  // namespace recflow::jsonl
