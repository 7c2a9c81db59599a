// StopSource / StopToken: a cooperative request that a run stop, with the signal that asked and a point of no return.
#pragma once

#include <atomic>
#include <memory>

#include "recflow/core/status.h"

namespace recflow {

namespace internal {
/// The state a StopSource shares with its tokens: 0 running, 1 + signal once a stop was
/// requested, -1 past the point of no return.
struct StopState {
  std::atomic<int> value{0};
};
}  // namespace internal

/// What a running job checks to learn that it should stop. Cheap to copy; a default-made token
/// is never stopped. Checking it is one atomic load: jobs check it once per unit, not per record.
class StopToken {
 public:
  /// A token no one can stop.
  StopToken() = default;

  /// True once a stop was requested.
  bool stop_requested() const {
    return state_ != nullptr && state_->value.load(std::memory_order_acquire) > 0;
  }
  /// OK, or Cancelled ("interrupted by SIGINT", or "cancelled" without a signal) once a stop
  /// was requested.
  Status Poll() const;
  /// The signal that requested the stop (SIGINT, SIGTERM), 0 when none did.
  int signal() const;
  /// Blocks until a stop is requested (for a job whose work is waiting: a server). Never returns
  /// for a default-made token or past the point of no return.
  void WaitForStop() const;
  /// Passes the job's point of no return (the swap that commits its outputs): Cancelled when a
  /// stop was requested before, else OK, and every later StopSource::RequestStop is refused, so
  /// that whoever asks knows the job will finish rather than stop.
  Status PassPointOfNoReturn() const;

 private:
  friend class StopSource;
  explicit StopToken(std::shared_ptr<internal::StopState> state) : state_(std::move(state)) {}
  std::shared_ptr<internal::StopState> state_;
};

/// Requests a stop of the jobs that hold its tokens. RequestStop is lock-free: a thread waiting
/// for signals (sigwait) may call it.
class StopSource {
 public:
  StopSource();

  /// Asks every token's job to stop, naming `signal` (≥ 0; 0 = none) as the reason. True when
  /// this call requested the stop; false when one was requested before or a job passed its
  /// point of no return (then nothing stops: a caller that cannot wait must take another path).
  bool RequestStop(int signal = 0);
  /// A token of this source.
  StopToken token() const { return StopToken(state_); }

 private:
  std::shared_ptr<internal::StopState> state_;
};

}  // namespace recflow
