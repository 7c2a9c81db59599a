// LingeringClose: POLLIN drains and discards client input; periodic SIOCOUTQ checks end connections.
#include "recflow/serve/lingering_close.h"

#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace recflow::serve {

namespace {

/// Bytes written to the socket `fd` that its peer has not taken yet (0 when unknown).
int UnreadBytes(int fd) {
  int unread = 0;
  if (::ioctl(fd, SIOCOUTQ, &unread) != 0) return 0;
  return unread;
}

}  // namespace

void AbortConnection(int fd) {
  const linger reset{1, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
  ::close(fd);
}

void CloseDiscardingInput(int fd) {
  char sink[16384];
  for (int i = 0; i < 64 && ::recv(fd, sink, sizeof(sink), MSG_DONTWAIT) > 0; ++i) {  // bounded: a flood ends it
  }
  ::close(fd);
}

LingeringClose::~LingeringClose() {
  for (const Connection& c : connections_) CloseDiscardingInput(c.fd);
}

void LingeringClose::Add(int fd) { connections_.push_back({fd, Clock::now() + check_interval_, UnreadBytes(fd)}); }

void LingeringClose::AppendPollFds(std::vector<pollfd>* fds) const {
  for (const Connection& c : connections_) fds->push_back({c.fd, POLLIN, 0});
}

bool LingeringClose::Discard(int fd) {
  char sink[16384];
  for (int i = 0; i < 16; ++i) {  // a bounded share of the loop for a client that floods
    const ssize_t n = ::recv(fd, sink, sizeof(sink), MSG_DONTWAIT);
    if (n > 0) continue;
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
  }
  return true;
}

bool LingeringClose::Check(Connection* connection, Clock::time_point now) const {
  if (now < connection->check) return true;
  const int unread = UnreadBytes(connection->fd);
  if (unread == 0) {
    ::close(connection->fd);
    return false;
  }
  if (unread >= connection->unread) {
    AbortConnection(connection->fd);
    return false;
  }
  connection->unread = unread;
  connection->check = now + check_interval_;
  return true;
}

void LingeringClose::Service(std::span<const pollfd> polled, Clock::time_point now) {
  size_t kept = 0;
  for (size_t i = 0; i < connections_.size(); ++i) {
    Connection c = connections_[i];
    if (i < polled.size() && polled[i].revents != 0 && !Discard(c.fd)) {
      ::close(c.fd);  // the client closed its end: it has everything
      continue;
    }
    if (Check(&c, now)) connections_[kept++] = c;
  }
  connections_.resize(kept);
}

LingeringClose::Clock::time_point LingeringClose::next_check() const {
  Clock::time_point next = Clock::time_point::max();
  for (const Connection& c : connections_) next = std::min(next, c.check);
  return next;
}

}  // namespace recflow::serve
