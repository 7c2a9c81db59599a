// Clock: the system clock kept monotonic, and the manual clock's Set.
#include "recflow/core/clock.h"

#include <chrono>

namespace recflow {

namespace {

class SystemClock final : public Clock {
 public:
  int64_t NowMillis() const override {
    const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count();
    int64_t last = last_.load(std::memory_order_relaxed);
    while (now > last && !last_.compare_exchange_weak(last, now, std::memory_order_relaxed)) {
    }
    return now > last ? now : last;
  }

 private:
  mutable std::atomic<int64_t> last_{0};
};

}  // namespace

const Clock* Clock::System() {
  static const SystemClock clock;
  return &clock;
}

void ManualClock::Set(int64_t t) {
  int64_t now = now_.load(std::memory_order_relaxed);
  while (t > now && !now_.compare_exchange_weak(now, t, std::memory_order_acq_rel)) {
  }
}

}  // namespace recflow
