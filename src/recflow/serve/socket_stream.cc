// FdOutputStream: gathered sendmsg with MSG_NOSIGNAL (writev for non-sockets), waits for progress with poll.
#include "recflow/serve/socket_stream.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace recflow::serve {

namespace {

/// Writes at least this large go out at once, from the caller's memory.
constexpr int64_t kDirectWriteBytes = 64 << 10;

using SteadyClock = std::chrono::steady_clock;

}  // namespace

FdOutputStream::FdOutputStream(int fd, std::string name, bool owned, int send_timeout_ms, Clock clock)
    : fd_(fd),
      name_(std::move(name)),
      owned_(owned),
      send_timeout_ms_(send_timeout_ms),
      now_(clock ? std::move(clock) : Clock(&std::chrono::steady_clock::now)) {}

FdOutputStream::~FdOutputStream() { (void)Close(); }

Status FdOutputStream::Write(const void* data, int64_t n) {
  if (fd_ < 0) return Status::IOError(name_ + ": write after close");
  position_ += n;
  if (n >= kDirectWriteBytes) return SendAll(data, n);
  if (static_cast<int64_t>(pending_.size()) + n > kGatherBytes) RETURN_NOT_OK(SendAll(nullptr, 0));
  pending_.append(static_cast<const char*>(data), static_cast<size_t>(n));
  return Status::OK();
}

Status FdOutputStream::Flush() {
  if (fd_ < 0) return Status::OK();
  return SendAll(nullptr, 0);
}

Status FdOutputStream::WaitWritable(SteadyClock::time_point last_progress) {
  while (true) {
    int wait_ms = -1;  // no timeout: wait as long as it takes
    if (send_timeout_ms_ > 0) {
      const auto left = last_progress + std::chrono::milliseconds(send_timeout_ms_) - now_();
      wait_ms = static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(left).count());
      if (wait_ms <= 0) {
        return Status::IOError(name_ + ": the reader stopped reading (no byte taken for " +
                               std::to_string(send_timeout_ms_) + " ms)");
      }
    }
    pollfd writable{fd_, POLLOUT, 0};
    const int ready = ::poll(&writable, 1, wait_ms);
    if (ready > 0) return Status::OK();  // writable, or an error the next write reports
    if (ready < 0 && errno != EINTR) return Status::IOError(name_ + ": poll: " + std::strerror(errno));
  }
}

Status FdOutputStream::SendAll(const void* data, int64_t n) {
  iovec pieces[2] = {{pending_.data(), pending_.size()}, {const_cast<void*>(data), static_cast<size_t>(n)}};
  iovec* next = pieces;
  int count = 2;
  SteadyClock::time_point last_progress = now_();
  while (count > 0) {
    if (next->iov_len == 0) {
      ++next;
      --count;
      continue;
    }
    ssize_t written;
    if (socket_) {
      msghdr message{};
      message.msg_iov = next;
      message.msg_iovlen = static_cast<size_t>(count);
      written = ::sendmsg(fd_, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (written < 0 && errno == ENOTSOCK) {
        socket_ = false;
        continue;
      }
    } else {
      written = ::writev(fd_, next, count);
    }
    if (written < 0) {
      Status st;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        st = WaitWritable(last_progress);
      } else if (errno != EINTR) {
        st = Status::IOError(name_ + ": " + std::strerror(errno));
      }
      if (!st.ok()) {
        pending_.clear();
        return st;
      }
      continue;
    }
    last_progress = now_();
    for (size_t left = static_cast<size_t>(written); left > 0;) {
      const size_t step = std::min(left, next->iov_len);
      next->iov_base = static_cast<char*>(next->iov_base) + step;
      next->iov_len -= step;
      left -= step;
      if (next->iov_len == 0) {
        ++next;
        --count;
      }
    }
  }
  pending_.clear();
  return Status::OK();
}

Status FdOutputStream::Close() {
  if (fd_ < 0) return Status::OK();
  const Status st = Flush();
  if (owned_) ::close(fd_);
  fd_ = -1;
  return st;
}

}  // namespace recflow::serve
