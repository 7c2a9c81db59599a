// IovecCursor, WritevAll and PwritevAll: the loops that hand gathered pieces to the kernel until all are taken; FinishWrites.
#include "recflow/core/gathered_write.h"

#include <limits.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace recflow {

void IovecCursor::Add(std::string_view piece) {
  if (piece.empty()) return;
  pieces_.push_back({const_cast<char*>(piece.data()), piece.size()});
  remaining_ += piece.size();
}

void IovecCursor::AddAll(std::span<const std::string_view> pieces) {
  pieces_.reserve(pieces_.size() + pieces.size());
  for (std::string_view piece : pieces) Add(piece);
}

std::span<iovec> IovecCursor::Next() {
  const size_t count = std::min<size_t>(pieces_.size() - first_, IOV_MAX);
  return {pieces_.data() + first_, count};
}

void IovecCursor::Advance(size_t n) {
  n = std::min(n, remaining_);
  remaining_ -= n;
  while (n > 0) {
    iovec& piece = pieces_[first_];
    const size_t step = std::min(n, piece.iov_len);
    piece.iov_base = static_cast<char*>(piece.iov_base) + step;
    piece.iov_len -= step;
    n -= step;
    if (piece.iov_len == 0) ++first_;
  }
}

namespace {

// Hands `pieces` to `write_some` (a writev or pwritev of the pieces from a byte position on) until
// every byte is taken, retrying partial writes and EINTR; `where` describes the write in an error.
template <typename WriteSome>
Status WriteAllPieces(const std::string& name, const std::string& where, IovecCursor& pieces,
                      WriteSome write_some) {
  const size_t total = pieces.remaining();
  while (!pieces.done()) {
    const std::span<iovec> next = pieces.Next();
    const ssize_t written = write_some(next, total - pieces.remaining());
    if (written < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(name + ": cannot write " + std::to_string(total) + " bytes" + where + " (" +
                             std::to_string(total - pieces.remaining()) + " written): " + std::strerror(errno));
    }
    pieces.Advance(static_cast<size_t>(written));
  }
  return Status::OK();
}

}  // namespace

Status WritevAll(int fd, const std::string& name, IovecCursor& pieces) {
  return WriteAllPieces(name, "", pieces, [fd](std::span<iovec> next, size_t) {
    return ::writev(fd, next.data(), static_cast<int>(next.size()));
  });
}

Status PwritevAll(int fd, const std::string& name, int64_t offset, IovecCursor& pieces) {
  return WriteAllPieces(name, " at offset " + std::to_string(offset), pieces,
                        [fd, offset](std::span<iovec> next, size_t done) {
                          return ::pwritev(fd, next.data(), static_cast<int>(next.size()),
                                           static_cast<off_t>(offset + static_cast<int64_t>(done)));
                        });
}

Status FinishWrites(int fd, const std::string& name, bool sync, bool close_fd) {
  Status st;
  if (sync && ::fsync(fd) != 0 && errno != EINVAL) {
    st = Status::IOError(name + ": cannot fsync: " + std::strerror(errno));
  }
  if (close_fd && ::close(fd) != 0 && st.ok()) st = Status::IOError(name + ": cannot close: " + std::strerror(errno));
  return st;
}

size_t TotalSize(std::span<const std::string_view> pieces) {
  size_t total = 0;
  for (std::string_view piece : pieces) total += piece.size();
  return total;
}

}  // namespace recflow
