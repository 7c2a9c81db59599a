// StderrLog: poll for room (or for Abandon) before each write of at most PIPE_BUF bytes.
#include "recflow/cli/stderr_log.h"

#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace recflow::cli {

Result<std::unique_ptr<StderrLog>> StderrLog::Open(int fd) {
  int abandoned[2];
  if (::pipe2(abandoned, O_CLOEXEC) != 0) {
    return Status::IOError(std::string("cannot make the log's wake-up pipe: ") + std::strerror(errno));
  }
  return std::unique_ptr<StderrLog>(new StderrLog(fd, abandoned[0], abandoned[1]));
}

StderrLog::~StderrLog() {
  ::close(abandoned_[0]);
  ::close(abandoned_[1]);
}

void StderrLog::Write(std::string_view line) {
  std::string text(line);
  text.push_back('\n');
  std::lock_guard<std::mutex> lock(mutex_);
  size_t at = 0;
  while (at < text.size()) {
    pollfd fds[2] = {{fd_, POLLOUT, 0}, {abandoned_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[0].revents == 0) return;  // abandoned, and the descriptor takes nothing: dropped
    // A pipe that polls writable has room for PIPE_BUF bytes, so this write does not block.
    const ssize_t n = ::write(fd_, text.data() + at, std::min<size_t>(text.size() - at, PIPE_BUF));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a closed or failing stderr: the line is lost, the server goes on
    at += static_cast<size_t>(n);
  }
}

void StderrLog::Abandon() {
  const char byte = 1;
  (void)!::write(abandoned_[1], &byte, 1);
}

}  // namespace recflow::cli
