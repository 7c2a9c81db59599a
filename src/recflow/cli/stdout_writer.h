// Buffered standard output that treats a closed pipe (EPIPE) as a normal stop.
#pragma once

#include <string>
#include <string_view>

#include "recflow/core/status.h"

namespace recflow::cli {

/// Collects output in a buffer and writes it to a file descriptor in large chunks.
///
/// When the reader of a pipe goes away (`recflow cat x | head -1`) writes fail with EPIPE
/// (SIGPIPE must be ignored, see IgnoreSigpipe); the writer then reports `closed()` and drops
/// all further output, so commands can stop early and exit 0.
class StdoutWriter {
 public:
  /// Writes to `fd` (standard output by default).
  explicit StdoutWriter(int fd = 1) : fd_(fd) {}
  /// Flushes what is buffered (errors are lost: call Flush() first to see them).
  ~StdoutWriter();
  StdoutWriter(const StdoutWriter&) = delete;
  StdoutWriter& operator=(const StdoutWriter&) = delete;

  /// The buffer to append text to; MaybeFlush() writes it out when it grows large.
  std::string* buffer() { return &buffer_; }
  /// Writes the buffer when it holds at least a chunk's worth of bytes.
  Status MaybeFlush() { return buffer_.size() >= kChunk ? Flush() : Status::OK(); }
  /// Writes everything buffered. EPIPE is not an error: it sets closed().
  Status Flush();
  /// True once the reader has closed the pipe; output is dropped from then on.
  bool closed() const { return closed_; }

 private:
  static constexpr size_t kChunk = size_t{1} << 16;
  int fd_;
  bool closed_ = false;
  std::string buffer_;
};

/// Ignores SIGPIPE so that a closed stdout shows up as EPIPE from write(2).
void IgnoreSigpipe();

}  // namespace recflow::cli
