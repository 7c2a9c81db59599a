// Clock: where processing time comes from — the system's wall clock for live runs, a clock moved by hand in tests.
#pragma once

#include <atomic>
#include <cstdint>

namespace recflow {

/// Processing time, in epoch milliseconds (so that it compares with event times). Thread-safe.
class Clock {
 public:
  virtual ~Clock() = default;
  /// The time now; never earlier than a time returned before.
  virtual int64_t NowMillis() const = 0;
  /// The system's wall clock (std::chrono::system_clock), held from going back when the system
  /// time is set back. Lives as long as the process.
  static const Clock* System();
};

/// A clock that moves only when told: processing time in deterministic tests.
class ManualClock final : public Clock {
 public:
  /// A clock at `start`.
  explicit ManualClock(int64_t start = 0) : now_(start) {}
  int64_t NowMillis() const override { return now_.load(std::memory_order_acquire); }
  /// Moves the clock to `t`; an earlier time than now is ignored.
  void Set(int64_t t);
  /// Moves the clock on by `millis` (>= 0).
  void Advance(int64_t millis) { now_.fetch_add(millis, std::memory_order_acq_rel); }

 private:
  std::atomic<int64_t> now_;
};

}  // namespace recflow
