// LiveDisplay: text redrawn in place on stderr at a fixed period while a job runs (progress bar, live metrics).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace recflow::cli {

/// Redraws the text `render` returns on stderr every `period`, from a background thread, while
/// alive: each drawing first erases the previous one. The text is one line without a newline
/// (a bar redrawn over itself) or whole lines each ending in '\n'. Does nothing when `enabled`
/// is false (stderr not a terminal, --quiet).
class LiveDisplay {
 public:
  /// `render` is called on the display's thread and must be safe to call while the job runs.
  LiveDisplay(std::chrono::milliseconds period, std::function<std::string()> render, bool enabled);
  /// Stops the thread and erases the last drawing.
  ~LiveDisplay();
  LiveDisplay(const LiveDisplay&) = delete;
  LiveDisplay& operator=(const LiveDisplay&) = delete;

 private:
  void Run();
  /// Erases the last drawing: its current line, then every line it ended.
  void Erase();

  std::chrono::milliseconds period_;
  std::function<std::string()> render_;
  int lines_ = 0;  // newlines in the last drawing
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace recflow::cli
