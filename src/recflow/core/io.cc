// File and memory streams (read(2)/write(2) with EINTR retries) and whole-file reads.
#include "recflow/core/io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <utility>

#include "recflow/core/gathered_write.h"
#include "recflow/core/input_peek_internal.h"

namespace recflow {

namespace {

/// Output is gathered into blocks of this size before write(2).
constexpr size_t kOutputBufferSize = size_t{1} << 20;
/// Largest single read(2) request (Linux caps transfers just below 2 GiB).
constexpr int64_t kMaxIoChunk = int64_t{1} << 30;

Status ErrnoError(const std::string& path, const char* what, int err) {
  const std::string text = path + ": " + what + ": " + std::strerror(err);
  if (err == ENOENT) return Status::NotFound(text);
  return Status::IOError(text);
}

}  // namespace

Result<int64_t> ReadFully(InputStream& in, void* out, int64_t n) {
  auto* dst = static_cast<uint8_t*>(out);
  int64_t total = 0;
  while (total < n) {
    ASSIGN_OR_RETURN(const int64_t got, in.Read(dst + total, n - total));
    if (got == 0) break;
    total += got;
  }
  return total;
}

Result<std::unique_ptr<FileInputStream>> FileInputStream::Open(const std::string& path) {
  if (std::unique_ptr<FileInputStream> peeked = internal::TakePeekedInput(path)) return peeked;
  return OpenUnpeeked(path);
}

Result<std::unique_ptr<FileInputStream>> FileInputStream::OpenUnpeeked(const std::string& path) {
  if (path == "-") return FromFd(STDIN_FILENO, "<stdin>", false);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoError(path, "cannot open", errno);
  struct stat st {};
  const bool stated = ::fstat(fd, &st) == 0;
  if (stated && S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status::InvalidArgument(path + ": is a directory");
  }
  std::unique_ptr<FileInputStream> stream(new FileInputStream(fd, true, path));
  if (stated && S_ISREG(st.st_mode)) stream->regular_size_ = st.st_size;
  return stream;
}

FileInputStream::~FileInputStream() {
  if (owned_) ::close(fd_);
}

Result<int64_t> FileInputStream::Read(void* out, int64_t n) {
  if (n <= 0) return int64_t{0};
  if (peeked_pos_ < peeked_.size()) {
    const size_t take = std::min(static_cast<size_t>(n), peeked_.size() - peeked_pos_);
    std::memcpy(out, peeked_.data() + peeked_pos_, take);
    peeked_pos_ += take;
    if (peeked_pos_ == peeked_.size()) {  // all returned: free them
      std::string().swap(peeked_);
      peeked_pos_ = 0;
    }
    position_ += static_cast<int64_t>(take);
    return static_cast<int64_t>(take);
  }
  for (;;) {
    const ssize_t r = ::read(fd_, out, static_cast<size_t>(std::min(n, kMaxIoChunk)));
    if (r >= 0) {
      position_ += r;
      return static_cast<int64_t>(r);
    }
    if (errno != EINTR) return ErrnoError(name_, "cannot read", errno).WithFile(name_).WithOffset(position_);
  }
}

Result<int64_t> BufferInputStream::Read(void* out, int64_t n) {
  const int64_t take = std::clamp<int64_t>(n, 0, buffer_->size() - position_);
  if (take > 0) std::memcpy(out, buffer_->data() + position_, static_cast<size_t>(take));
  position_ += take;
  return take;
}

Status OutputStream::WriteGathered(std::span<const std::string_view> pieces) {
  for (std::string_view piece : pieces) RETURN_NOT_OK(Write(piece.data(), static_cast<int64_t>(piece.size())));
  return Status::OK();
}

Status BufferOutputStream::WriteGathered(std::span<const std::string_view> pieces) {
  RETURN_NOT_OK(builder_.Reserve(static_cast<int64_t>(TotalSize(pieces))));
  for (std::string_view piece : pieces) builder_.UnsafeAppend(piece.data(), static_cast<int64_t>(piece.size()));
  return Status::OK();
}

Result<std::unique_ptr<FileOutputStream>> FileOutputStream::Open(const std::string& path, bool append) {
  std::unique_ptr<FileOutputStream> out;
  if (path == "-") {
    out.reset(new FileOutputStream(STDOUT_FILENO, false, "<stdout>"));
  } else {
    const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC);
    const int fd = ::open(path.c_str(), flags, 0666);
    if (fd < 0) return ErrnoError(path, "cannot create", errno);
    out.reset(new FileOutputStream(fd, true, path));
  }
  out->pending_.reserve(kOutputBufferSize);
  return out;
}

FileOutputStream::~FileOutputStream() {
  // Errors here cannot be reported; callers learn them from Close().
  (void)Close();
}

Status FileOutputStream::Write(const void* data, int64_t n) {
  if (n <= 0) return fd_ < 0 ? Status::IOError(name_ + ": write after close") : Status::OK();
  const std::string_view piece(static_cast<const char*>(data), static_cast<size_t>(n));
  return WriteGathered({&piece, 1});
}

Status FileOutputStream::WriteGathered(std::span<const std::string_view> pieces) {
  if (fd_ < 0) return Status::IOError(name_ + ": write after close");
  const size_t size = TotalSize(pieces);
  position_ += static_cast<int64_t>(size);
  if (pending_.size() + size <= kOutputBufferSize) {
    for (std::string_view piece : pieces) pending_ += piece;
    return Status::OK();
  }
  IovecCursor cursor;
  cursor.Add(pending_);
  cursor.AddAll(pieces);
  Status st = WritevAll(fd_, name_, cursor);
  pending_.clear();
  return st;
}

Status FileOutputStream::Flush() {
  if (fd_ < 0) return Status::IOError(name_ + ": flush after close");
  IovecCursor cursor;
  cursor.Add(pending_);
  Status st = WritevAll(fd_, name_, cursor);
  pending_.clear();
  return st;
}

Status FileOutputStream::Close() {
  if (fd_ < 0) return Status::OK();
  Status st = Flush();
  Status finished = FinishWrites(fd_, name_, st.ok() && sync_on_close_, owned_);
  if (st.ok()) st = std::move(finished);
  fd_ = -1;
  return st;
}

Result<int64_t> AppendStream(InputStream& in, int64_t known_size, BufferBuilder& out, int64_t max_bytes) {
  const int64_t start = out.size();
  const auto too_big = [&](int64_t bytes) {
    return Status::InvalidArgument(in.name() + ": " + std::to_string(bytes) + " bytes or more, over the limit of " +
                                   std::to_string(max_bytes));
  };
  auto read = [&]() -> Status {
    if (known_size > max_bytes) return too_big(known_size);
    // + 1: the read that sees the end needs room, so a file of known size takes one allocation.
    RETURN_NOT_OK(out.Reserve(std::max<int64_t>(known_size, 0) + 1));
    for (;;) {
      if (out.capacity() == out.size()) RETURN_NOT_OK(out.Reserve(int64_t{1} << 16));
      ASSIGN_OR_RETURN(const int64_t got, in.Read(out.mutable_data() + out.size(), out.capacity() - out.size()));
      if (got == 0) return Status::OK();
      out.UnsafeAdvance(got);
      if (out.size() - start > max_bytes) return too_big(out.size() - start);
    }
  };
  if (Status status = read(); !status.ok()) {
    out.Truncate(start);
    return status;
  }
  return out.size() - start;
}

Result<std::shared_ptr<Buffer>> ReadWholeFile(const std::string& path) {
  // Mapping costs a mmap and a munmap (with a TLB shootdown on every core) per file: worth it
  // for big files only. Small ones (an image, a label file) are read into memory.
  constexpr int64_t kMapAtLeast = int64_t{1} << 20;
  ASSIGN_OR_RETURN(auto in, FileInputStream::Open(path));
  if (in->regular_size() >= kMapAtLeast) return Buffer::MapFile(path);
  BufferBuilder builder;
  RETURN_NOT_OK(AppendStream(*in, in->regular_size(), builder, std::numeric_limits<int64_t>::max()).status());
  return builder.Finish();
}

Result<int64_t> AppendWholeFile(const std::string& path, BufferBuilder& out, int64_t max_bytes) {
  ASSIGN_OR_RETURN(auto in, FileInputStream::Open(path));
  return AppendStream(*in, in->regular_size(), out, max_bytes);
}

}  // namespace recflow
