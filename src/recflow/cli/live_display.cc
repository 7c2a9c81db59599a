// LiveDisplay: a thread that waits `period` (or the stop signal), erases the last drawing with ANSI codes and redraws.
#include "recflow/cli/live_display.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstdio>

namespace recflow::cli {

LiveDisplay::LiveDisplay(std::chrono::milliseconds period, std::function<std::string()> render, bool enabled)
    : period_(period), render_(std::move(render)) {
  if (enabled) thread_ = std::thread([this] { Run(); });
}

LiveDisplay::~LiveDisplay() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  Erase();
  std::fflush(stderr);
}

void LiveDisplay::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, period_, [this] { return stop_; })) {
    Erase();
    const std::string text = render_();
    lines_ = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    fmt::print(stderr, "{}", text);
    std::fflush(stderr);
  }
}

void LiveDisplay::Erase() {
  fmt::print(stderr, "\r\x1b[2K");
  for (; lines_ > 0; --lines_) fmt::print(stderr, "\x1b[1A\x1b[2K");
}

}  // namespace recflow::cli
