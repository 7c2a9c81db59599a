// StdoutWriter: buffered writes with EPIPE treated as the reader stopping.
#include "recflow/cli/stdout_writer.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>

#include <unistd.h>

namespace recflow::cli {

StdoutWriter::~StdoutWriter() { (void)Flush(); }

Status StdoutWriter::Flush() {
  size_t done = 0;
  while (!closed_ && done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n >= 0) {
      done += static_cast<size_t>(n);
    } else if (errno == EPIPE) {
      closed_ = true;
    } else if (errno != EINTR) {
      const int err = errno;
      buffer_.clear();
      return Status::IOError(std::string("writing standard output: ") + std::strerror(err));
    }
  }
  buffer_.clear();
  return Status::OK();
}

void IgnoreSigpipe() { std::signal(SIGPIPE, SIG_IGN); }

}  // namespace recflow::cli
