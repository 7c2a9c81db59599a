// FdOutputStream: writes to a connected socket or descriptor that never raise SIGPIPE (reads: FileInputStream::FromFd).
#pragma once

#include <cstdint>
#include <string>

#include "recflow/core/io.h"

namespace recflow::serve {

/// Writes to a descriptor (a socket, a pipe, stdout). A peer that went away is an IOError
/// (never SIGPIPE); with `send_timeout_ms` > 0 a socket write that makes no progress for that
/// long is an IOError too, so a client that stops reading cannot hold a server thread forever.
/// Small writes (message metadata, padding) are gathered in a buffer; a large one goes out in
/// one gathered system call with that buffer, straight from the caller's memory (the body of
/// an IPC message is never copied). Flush, Close or the destructor send what is gathered.
class FdOutputStream final : public OutputStream {
 public:
  /// Takes `fd` (closed by Close or the destructor when `owned`).
  FdOutputStream(int fd, std::string name, bool owned, int send_timeout_ms = 0);
  ~FdOutputStream() override;
  Status Write(const void* data, int64_t n) override;
  Status Flush() override;
  Status Close() override;
  int64_t position() const override { return position_; }
  const std::string& name() const override { return name_; }

 private:
  /// Sends the gathered bytes, then `n` bytes at `data` (n may be 0).
  Status SendAll(const void* data, int64_t n);

  int fd_;
  std::string name_;
  bool owned_;
  bool socket_ = true;   // false once sendmsg said ENOTSOCK: writev then
  std::string pending_;  // gathered small writes
  int64_t position_ = 0;
};

}  // namespace recflow::serve
