// LingeringClose: finished connections kept open, their input discarded, until the client has read what it was sent.
#pragma once

#include <poll.h>

#include <chrono>
#include <span>
#include <vector>

namespace recflow::serve {

/// Connections whose stream is sent and whose write side is shut down (the client reads EOF
/// after the last byte), kept open until the client has its bytes. Closing a socket that holds
/// unread input sends a reset (RST), which throws away the unsent tail of the stream on TCP
/// and turns the client's EOF into an error on unix sockets; so whatever the client sends is
/// read and discarded, and a connection is closed when the client closes its end (or fails),
/// or at a check — every `check_interval` — that finds nothing of the stream left unread by
/// the client's side (SIOCOUTQ is 0). A check that finds the client took nothing since the
/// previous one resets the connection (the client stalled on the tail; its kernel buffers are
/// freed). Not thread-safe: one thread (the server's accept loop) owns it.
class LingeringClose {
 public:
  using Clock = std::chrono::steady_clock;

  explicit LingeringClose(std::chrono::milliseconds check_interval) : check_interval_(check_interval) {}
  /// Closes every connection still here (CloseDiscardingInput).
  ~LingeringClose();
  LingeringClose(const LingeringClose&) = delete;
  LingeringClose& operator=(const LingeringClose&) = delete;

  /// Takes `fd`, a connected socket whose write side is shut down.
  void Add(int fd);
  /// Appends one POLLIN entry per connection to `fds`, in the order Service expects.
  void AppendPollFds(std::vector<pollfd>* fds) const;
  /// Handles `polled` (the entries AppendPollFds appended, with their revents) and the checks
  /// due at `now`; closes the connections that are done.
  void Service(std::span<const pollfd> polled, Clock::time_point now);
  /// When the earliest check is due (Clock::time_point::max() when there is no connection).
  Clock::time_point next_check() const;
  /// Connections kept open.
  size_t size() const { return connections_.size(); }

 private:
  struct Connection {
    int fd;
    Clock::time_point check;  // when to look at the unread bytes next
    int unread;               // the stream's bytes not yet taken by the client at the last check
  };
  /// Reads and discards what the client sent; false once it closed its end or failed.
  static bool Discard(int fd);
  /// False when the connection is done (closed here): nothing unread, or no progress.
  bool Check(Connection* connection, Clock::time_point now) const;

  std::chrono::milliseconds check_interval_;
  std::vector<Connection> connections_;
};

/// Closes `fd`, a socket whose write side is shut down, at once, after reading and discarding
/// what the client sent: a socket closed with unread input sends a reset, which can throw away
/// the tail of what it was sent; without it, the client reads all of it and then EOF.
void CloseDiscardingInput(int fd);

/// Closes `fd` with a reset (SO_LINGER 0): the kernel drops what is still queued at once,
/// for a client that is dropped rather than finished.
void AbortConnection(int fd);

}  // namespace recflow::serve
