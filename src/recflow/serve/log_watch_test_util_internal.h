// LogWatch (tests): a server's log lines kept with their times, and waits for the lines a test expects.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace recflow::serve::testing {

/// Every wait in the serve tests ends after this long: a bound on a hang, not a timing.
inline constexpr auto kHangBound = std::chrono::seconds(60);

/// The log of a server, and waits for the lines it expects.
class LogWatch {
 public:
  using Clock = std::chrono::steady_clock;

  /// The callback to give the server as its log.
  std::function<void(const std::string&)> Callback() {
    return [this](const std::string& line) {
      std::lock_guard<std::mutex> lock(mutex_);
      lines_.push_back({line, Clock::now()});
      changed_.notify_all();
    };
  }

  /// Waits until `count` lines contain one of `texts`; the time the last of them was logged, or
  /// nullopt after kHangBound.
  std::optional<Clock::time_point> WaitForAny(const std::vector<std::string>& texts, int count) {
    std::unique_lock<std::mutex> lock(mutex_);
    std::optional<Clock::time_point> at;
    changed_.wait_for(lock, kHangBound, [&] {
      int seen = 0;
      for (const auto& [line, when] : lines_) {
        for (const std::string& text : texts) {
          if (line.find(text) == std::string::npos) continue;
          if (++seen == count) at = when;
          break;
        }
      }
      return at.has_value();
    });
    return at;
  }
  /// Waits until `count` lines contain `text` (as above).
  std::optional<Clock::time_point> WaitFor(const std::string& text, int count = 1) {
    return WaitForAny({text}, count);
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::pair<std::string, Clock::time_point>> lines_;
};

}  // namespace recflow::serve::testing
