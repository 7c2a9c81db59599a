// FdOutputStream / FdInputStream: send with MSG_NOSIGNAL (write for non-sockets), EINTR retried.
#include "recflow/serve/socket_stream.h"

#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace recflow::serve {

FdOutputStream::FdOutputStream(int fd, std::string name, bool owned, int send_timeout_ms)
    : fd_(fd), name_(std::move(name)), owned_(owned) {
  if (send_timeout_ms > 0) {
    timeval timeout{send_timeout_ms / 1000, (send_timeout_ms % 1000) * 1000};
    ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));  // fails harmlessly on non-sockets
  }
}

FdOutputStream::~FdOutputStream() { (void)Close(); }

Status FdOutputStream::Write(const void* data, int64_t n) {
  if (fd_ < 0) return Status::IOError(name_ + ": write after close");
  const auto* bytes = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t written = ::send(fd_, bytes, static_cast<size_t>(n), MSG_NOSIGNAL);
    if (written < 0 && errno == ENOTSOCK) written = ::write(fd_, bytes, static_cast<size_t>(n));
    if (written < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return Status::IOError(name_ + ": the reader stopped reading");
      return Status::IOError(name_ + ": " + std::strerror(errno));
    }
    bytes += written;
    n -= written;
    position_ += written;
  }
  return Status::OK();
}

Status FdOutputStream::Close() {
  if (fd_ >= 0 && owned_) ::close(fd_);
  fd_ = -1;
  return Status::OK();
}

FdInputStream::FdInputStream(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}

FdInputStream::~FdInputStream() {
  if (fd_ >= 0) ::close(fd_);
}

Result<int64_t> FdInputStream::Read(void* out, int64_t n) {
  int64_t total = 0;
  auto* bytes = static_cast<char*>(out);
  while (total < n) {
    const ssize_t got = ::read(fd_, bytes + total, static_cast<size_t>(n - total));
    if (got < 0) {
      if (errno == EINTR) continue;
      return Status::IOError(name_ + ": " + std::strerror(errno));
    }
    if (got == 0) break;
    total += got;
  }
  position_ += total;
  return total;
}

}  // namespace recflow::serve
