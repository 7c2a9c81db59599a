// FdOutputStream: gathered sendmsg with MSG_NOSIGNAL (writev for non-sockets), waits for progress with poll.
#include "recflow/serve/socket_stream.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "recflow/core/gathered_write.h"

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
  const std::string_view piece(static_cast<const char*>(data), static_cast<size_t>(std::max<int64_t>(n, 0)));
  return WriteGathered({&piece, 1});
}

Status FdOutputStream::WriteGathered(std::span<const std::string_view> pieces) {
  if (fd_ < 0) return Status::IOError(name_ + ": write after close");
  const auto n = static_cast<int64_t>(TotalSize(pieces));
  position_ += n;
  if (n >= kDirectWriteBytes) return SendAll(pieces);
  if (static_cast<int64_t>(pending_.size()) + n > kGatherBytes) RETURN_NOT_OK(SendAll({}));
  for (std::string_view piece : pieces) pending_ += piece;
  return Status::OK();
}

Status FdOutputStream::Flush() {
  if (fd_ < 0) return Status::OK();
  return SendAll({});
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

Status FdOutputStream::SendAll(std::span<const std::string_view> pieces) {
  IovecCursor cursor;
  cursor.Add(pending_);
  cursor.AddAll(pieces);
  SteadyClock::time_point last_progress = now_();
  while (!cursor.done()) {
    const std::span<iovec> next = cursor.Next();
    ssize_t written;
    if (socket_) {
      msghdr message{};
      message.msg_iov = next.data();
      message.msg_iovlen = next.size();
      written = ::sendmsg(fd_, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (written < 0 && errno == ENOTSOCK) {
        socket_ = false;
        continue;
      }
    } else {
      written = ::writev(fd_, next.data(), static_cast<int>(next.size()));
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
    cursor.Advance(static_cast<size_t>(written));
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
