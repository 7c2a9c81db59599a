// FdOutputStream: writes to a connected socket or descriptor that never raise SIGPIPE (reads: FileInputStream::FromFd).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "recflow/core/io.h"

namespace recflow::serve {

/// Writes to a descriptor (a socket, a pipe, stdout). A peer that went away is an IOError
/// (never SIGPIPE). With `send_timeout_ms` > 0, a socket that accepts no byte for that long
/// is an IOError too, so a client that stops reading cannot hold a server thread: the timeout
/// is about progress, not about the whole write — every call that moves bytes restarts it, and
/// one wait without progress ends at the timeout whatever the socket buffer sizes (the socket
/// is written without blocking and waited for with poll). Small writes (message metadata,
/// padding, small batches) are gathered in a buffer of at most kGatherBytes; a large write or
/// gathered write goes out with that buffer in gathered system calls (sendmsg, or writev for
/// a pipe), straight from the caller's memory (the body of an IPC message is never copied).
/// Flush, Close or the destructor send what is gathered.
class FdOutputStream final : public OutputStream {
 public:
  /// At most this many bytes of small writes are gathered before they are sent.
  static constexpr int64_t kGatherBytes = 256 << 10;
  /// What the send timeout is measured with: steady_clock::now, or a test's clock.
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  /// Takes `fd` (closed by Close or the destructor when `owned`). `clock` (empty:
  /// steady_clock::now) is read when bytes move and before each wait.
  FdOutputStream(int fd, std::string name, bool owned, int send_timeout_ms = 0, Clock clock = {});
  ~FdOutputStream() override;
  /// A gathered write of one piece.
  Status Write(const void* data, int64_t n) override;
  Status WriteGathered(std::span<const std::string_view> pieces) override;
  Status Flush() override;
  Status Close() override;
  int64_t position() const override { return position_; }
  const std::string& name() const override { return name_; }

 private:
  /// Sends the gathered bytes, then `pieces` (which may be empty).
  Status SendAll(std::span<const std::string_view> pieces);
  /// Waits until `fd_` takes bytes again; an IOError once it has taken none for the timeout
  /// since `last_progress`.
  Status WaitWritable(std::chrono::steady_clock::time_point last_progress);

  int fd_;
  std::string name_;
  bool owned_;
  int send_timeout_ms_;
  Clock now_;
  bool socket_ = true;   // false once sendmsg said ENOTSOCK: writev then
  std::string pending_;  // gathered small writes
  int64_t position_ = 0;
};

}  // namespace recflow::serve
