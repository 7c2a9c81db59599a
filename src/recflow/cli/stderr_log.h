// StderrLog: `recflow serve`'s log lines on stderr, which wait for a stderr nobody reads only until the server stops.
#pragma once

#include <memory>
#include <mutex>
#include <string_view>

#include "recflow/core/result.h"

namespace recflow::cli {

/// Writes whole log lines to a descriptor (stderr) that may be a full pipe nobody reads. A line
/// waits for the descriptor to take it — until Abandon(): from then on a line it cannot take at
/// once is dropped, so a process stopping on SIGTERM never hangs on its log. Thread-safe; lines
/// are written whole and in order.
class StderrLog {
 public:
  /// A log on `fd` (stderr by default); an IOError when its wake-up pipe cannot be made.
  static Result<std::unique_ptr<StderrLog>> Open(int fd = 2);
  ~StderrLog();
  StderrLog(const StderrLog&) = delete;
  StderrLog& operator=(const StderrLog&) = delete;

  /// Writes `line` and a newline (dropped when abandoned and the descriptor is full).
  void Write(std::string_view line);
  /// Stops waiting: the line waiting now, and any later one the descriptor cannot take at
  /// once, are dropped.
  void Abandon();

 private:
  StderrLog(int fd, int abandoned_read, int abandoned_write)
      : fd_(fd), abandoned_{abandoned_read, abandoned_write} {}

  int fd_;
  int abandoned_[2];  // a pipe: written once by Abandon, so waits on fd_ end
  std::mutex mutex_;  // one line at a time
};

}  // namespace recflow::cli
