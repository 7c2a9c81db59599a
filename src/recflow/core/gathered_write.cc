// IovecCursor, WritevAll and PwritevAll: the loops that hand gathered pieces to the kernel until all are taken.
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

Status WritevAll(int fd, const std::string& name, IovecCursor& pieces) {
  const size_t total = pieces.remaining();
  while (!pieces.done()) {
    const std::span<iovec> next = pieces.Next();
    const ssize_t written = ::writev(fd, next.data(), static_cast<int>(next.size()));
    if (written < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(name + ": cannot write (" + std::to_string(total - pieces.remaining()) + " of " +
                             std::to_string(total) + " bytes written): " + std::strerror(errno));
    }
    pieces.Advance(static_cast<size_t>(written));
  }
  return Status::OK();
}

Status PwritevAll(int fd, const std::string& name, int64_t offset, IovecCursor& pieces) {
  const size_t total = pieces.remaining();
  while (!pieces.done()) {
    const std::span<iovec> next = pieces.Next();
    const int64_t at = offset + static_cast<int64_t>(total - pieces.remaining());
    const ssize_t written = ::pwritev(fd, next.data(), static_cast<int>(next.size()), static_cast<off_t>(at));
    if (written < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(name + ": cannot write " + std::to_string(total) + " bytes at offset " +
                             std::to_string(offset) + " (" + std::to_string(total - pieces.remaining()) +
                             " written): " + std::strerror(errno));
    }
    pieces.Advance(static_cast<size_t>(written));
  }
  return Status::OK();
}

size_t TotalSize(std::span<const std::string_view> pieces) {
  size_t total = 0;
  for (std::string_view piece : pieces) total += piece.size();
  return total;
}

}  // namespace recflow
