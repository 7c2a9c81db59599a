// StopSource / StopToken: one atomic int moved by compare-and-swap from running to stopped or past no return.
#include "recflow/core/stop_token.h"

#include <string.h>

#include <string>

namespace recflow {

namespace {
constexpr int kRunning = 0;
constexpr int kPastNoReturn = -1;
}  // namespace

Status StopToken::Poll() const {
  if (!stop_requested()) return Status::OK();
  const int number = signal();
  if (number == 0) return Status::Cancelled("cancelled");
  const char* name = ::sigabbrev_np(number);
  return Status::Cancelled("interrupted by " +
                           (name != nullptr ? "SIG" + std::string(name) : "signal " + std::to_string(number)));
}

int StopToken::signal() const {
  if (state_ == nullptr) return 0;
  const int value = state_->value.load(std::memory_order_acquire);
  return value > 0 ? value - 1 : 0;
}

void StopToken::WaitForStop() const {
  static const internal::StopState kNeverStopped;
  const internal::StopState& state = state_ != nullptr ? *state_ : kNeverStopped;
  for (int value = state.value.load(std::memory_order_acquire); value <= 0;
       value = state.value.load(std::memory_order_acquire)) {
    state.value.wait(value, std::memory_order_acquire);
  }
}

Status StopToken::PassPointOfNoReturn() const {
  if (state_ == nullptr) return Status::OK();
  int expected = kRunning;
  if (state_->value.compare_exchange_strong(expected, kPastNoReturn, std::memory_order_acq_rel)) return Status::OK();
  return Poll();  // Cancelled when stopped before; OK when passed already
}

StopSource::StopSource() : state_(std::make_shared<internal::StopState>()) {}

bool StopSource::RequestStop(int signal) {
  int expected = kRunning;
  if (!state_->value.compare_exchange_strong(expected, 1 + signal, std::memory_order_acq_rel)) return false;
  state_->value.notify_all();
  return true;
}

}  // namespace recflow
