// Byte streams over local files, stdin/stdout and memory, and whole-file reads.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "recflow/core/buffer.h"
#include "recflow/core/result.h"

namespace recflow {

/// A source of bytes read front to back.
class InputStream {
 public:
  virtual ~InputStream() = default;
  /// Reads up to `n` bytes into `out`; returns how many were read, 0 only at end of stream.
  virtual Result<int64_t> Read(void* out, int64_t n) = 0;
  /// Bytes returned by Read so far.
  virtual int64_t position() const = 0;
  /// The name used in error messages (a path, "<stdin>", "<memory>").
  virtual const std::string& name() const = 0;
};

/// Reads until `n` bytes or the end of the stream; returns how many were read.
Result<int64_t> ReadFully(InputStream& in, void* out, int64_t n);

/// A sink of bytes. Close() must be called to learn whether the last writes succeeded.
class OutputStream {
 public:
  virtual ~OutputStream() = default;
  virtual Status Write(const void* data, int64_t n) = 0;
  /// Writes the concatenation of `pieces`, in order, as one gathered write: streams over a
  /// descriptor hand the pieces to the kernel with writev(2) (no copy into a buffer when they are
  /// large), others append them. By default, one Write per piece. On error an unknown prefix of
  /// the bytes may have been written, as with Write.
  virtual Status WriteGathered(std::span<const std::string_view> pieces);
  virtual Status Flush() = 0;
  /// Flushes and releases the sink; further calls are errors. Idempotent.
  virtual Status Close() = 0;
  /// Bytes accepted by Write so far.
  virtual int64_t position() const = 0;
  virtual const std::string& name() const = 0;
};

/// A file whose writers say where each write goes, so that threads can write distinct ranges of
/// it at the same time (FileSystem::OpenPositionalOutput). The writer makes sure every range up
/// to the file's end is written once. Thread-safe, except Close.
class PositionalOutputFile {
 public:
  virtual ~PositionalOutputFile() = default;
  /// Writes the concatenation of `pieces` from byte `offset` on. On error an unknown part of the
  /// range may have been written; the error names the file and the offset.
  virtual Status WriteGatheredAt(int64_t offset, std::span<const std::string_view> pieces) = 0;
  /// Makes the bytes durable when opened so (WriteOptions::sync_on_close) and closes; further
  /// writes are errors. Idempotent; no write may be running.
  virtual Status Close() = 0;
  /// The path it was opened at.
  virtual const std::string& name() const = 0;
};

/// Reads a local file with read(2); "-" is standard input.
class FileInputStream final : public InputStream {
 public:
  /// Opens `path`; when PeekInput kept the head of this non-seekable input (standard input, a
  /// pipe), returns that stream, which reads the kept bytes again before the rest.
  static Result<std::unique_ptr<FileInputStream>> Open(const std::string& path);
  /// Reads the open descriptor `fd` (a socket, a pipe), closed by the destructor when `owned`;
  /// `name` appears in errors. Its regular_size() is -1.
  static std::unique_ptr<FileInputStream> FromFd(int fd, std::string name, bool owned) {
    return std::unique_ptr<FileInputStream>(new FileInputStream(fd, owned, std::move(name)));
  }
  ~FileInputStream() override;
  Result<int64_t> Read(void* out, int64_t n) override;
  int64_t position() const override { return position_; }
  const std::string& name() const override { return name_; }
  /// The file's size as of Open() when it is a regular file, else -1 (a pipe, a device).
  int64_t regular_size() const { return regular_size_; }

 private:
  friend Result<std::string> PeekInput(const std::string& path, int64_t n,
                                       const std::function<bool(std::string_view head)>& enough);
  FileInputStream(int fd, bool owned, std::string name) : fd_(fd), owned_(owned), name_(std::move(name)) {}
  /// Opens `path` itself, never a stream PeekInput kept.
  static Result<std::unique_ptr<FileInputStream>> OpenUnpeeked(const std::string& path);
  int fd_;
  bool owned_;
  std::string name_;
  int64_t position_ = 0;
  int64_t regular_size_ = -1;
  /// Bytes read from fd_ by PeekInput, returned by Read before anything else.
  std::string peeked_;
  size_t peeked_pos_ = 0;
};

/// Says whether the head peeked so far decides what an input holds (PeekInput then stops reading).
using PeekEnough = std::function<bool(std::string_view head)>;

/// The first bytes of `path`, for format detection: of a regular file, its first `n` (fewer at
/// its end); of a non-seekable input ("-" for standard input, a pipe, a FIFO, a device), what
/// arrives until `enough` (when given) accepts the head, `n` bytes arrived or the input ended, so
/// a slow writer (`tail -f x | recflow cat -`) is waited for only as long as detection needs. A
/// non-seekable input is read once and kept open with the bytes peeked, so the next
/// FileInputStream::Open(path) in this process returns them again before the rest: standard
/// input can be sniffed, then streamed. Peeking again before that Open returns the bytes kept
/// (reading more while they are not enough and fewer than `n`). Only those who peek or open the
/// same path wait for each other.
Result<std::string> PeekInput(const std::string& path, int64_t n, const PeekEnough& enough = nullptr);

/// Reads from a Buffer (zero-copy: the buffer is shared, not copied).
class BufferInputStream final : public InputStream {
 public:
  explicit BufferInputStream(std::shared_ptr<Buffer> buffer, std::string name = "<memory>")
      : buffer_(std::move(buffer)), name_(std::move(name)) {}
  Result<int64_t> Read(void* out, int64_t n) override;
  int64_t position() const override { return position_; }
  const std::string& name() const override { return name_; }

 private:
  std::shared_ptr<Buffer> buffer_;
  std::string name_;
  int64_t position_ = 0;
};

/// Writes a local file with write(2), buffered; "-" is standard output.
class FileOutputStream final : public OutputStream {
 public:
  /// Creates or truncates `path` (or appends when `append`).
  static Result<std::unique_ptr<FileOutputStream>> Open(const std::string& path, bool append = false);
  ~FileOutputStream() override;
  /// A gathered write of one piece.
  Status Write(const void* data, int64_t n) override;
  /// Pieces that fit the 1 MiB buffer with what it holds are copied there; otherwise the buffer
  /// and the pieces go out at once with writev(2), straight from the caller's memory.
  Status WriteGathered(std::span<const std::string_view> pieces) override;
  Status Flush() override;
  /// Flushes, fsyncs when `sync_on_close` was requested, and closes.
  Status Close() override;
  int64_t position() const override { return position_; }
  const std::string& name() const override { return name_; }
  /// Request fsync(2) on Close (for atomic commits).
  void set_sync_on_close(bool sync) { sync_on_close_ = sync; }

 private:
  FileOutputStream(int fd, bool owned, std::string name) : fd_(fd), owned_(owned), name_(std::move(name)) {}
  int fd_;
  bool owned_;
  bool sync_on_close_ = false;
  std::string name_;
  std::string pending_;
  int64_t position_ = 0;
};

/// Collects written bytes in memory.
class BufferOutputStream final : public OutputStream {
 public:
  Status Write(const void* data, int64_t n) override { return builder_.Append(data, n); }
  /// Grows the buffer once for all the pieces, then copies them.
  Status WriteGathered(std::span<const std::string_view> pieces) override;
  Status Flush() override { return Status::OK(); }
  Status Close() override { return Status::OK(); }
  int64_t position() const override { return builder_.size(); }
  const std::string& name() const override { return name_; }
  /// The bytes written so far; the stream is empty afterwards.
  std::shared_ptr<Buffer> Finish() { return builder_.Finish(); }

 private:
  BufferBuilder builder_;
  std::string name_ = "<memory>";
};

/// The whole content of `path`: memory-mapped for regular files of 1 MiB or more, read into
/// memory for smaller files, pipes and "-".
Result<std::shared_ptr<Buffer>> ReadWholeFile(const std::string& path);

/// Reads `in` to its end, appending to `out`, and returns the number of bytes appended. A stream
/// over `max_bytes` is an error, found from `known_size` (its size when known, else -1) before
/// anything is read, or once that much was read. On error nothing is appended.
Result<int64_t> AppendStream(InputStream& in, int64_t known_size, BufferBuilder& out, int64_t max_bytes);

/// Appends the whole content of `path` ("-" is standard input) to `out`, read and never mapped,
/// and returns the number of bytes appended: for many small files (images) read straight into
/// a column. A file over `max_bytes` is an error, found from its size before anything is read
/// (or once that much was read from a pipe). On error nothing is appended.
Result<int64_t> AppendWholeFile(const std::string& path, BufferBuilder& out,
                                int64_t max_bytes = std::numeric_limits<int64_t>::max());

}  // namespace recflow
