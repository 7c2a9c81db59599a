// SigintStop: a fixed table of registered stop sources read by the handler, which counts itself in so a source is
// never unregistered (and destroyed) while the handler may still use it; the previous handler chained.
#include "recflow/python/sigint_stop.h"

#include <atomic>
#include <csignal>
#include <mutex>

namespace recflow::python {

namespace {

constexpr int kSlots = 64;

std::atomic<StopSource*> sources[kSlots];
std::atomic<int> handlers_running{0};
std::mutex install_mutex;
int registered = 0;           // under install_mutex
bool wrapped = false;         // under install_mutex: our handler is installed
struct sigaction previous{};  // the handler ours replaced (read by the handler while wrapped)

void OnSigint(int signal, siginfo_t* info, void* context) {
  handlers_running.fetch_add(1, std::memory_order_acq_rel);
  for (std::atomic<StopSource*>& slot : sources) {
    if (StopSource* source = slot.load(std::memory_order_acquire)) source->RequestStop(signal);
  }
  handlers_running.fetch_sub(1, std::memory_order_acq_rel);
  if ((previous.sa_flags & SA_SIGINFO) != 0) {
    previous.sa_sigaction(signal, info, context);
  } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    previous.sa_handler(signal);
  }
}

}  // namespace

SigintStop::SigintStop(StopSource source) : source_(std::move(source)) {
  const std::lock_guard<std::mutex> lock(install_mutex);
  if (registered == 0) {
    struct sigaction current{};
    sigaction(SIGINT, nullptr, &current);
    wrapped = (current.sa_flags & SA_SIGINFO) != 0 || (current.sa_handler != SIG_DFL && current.sa_handler != SIG_IGN);
    if (wrapped) {
      previous = current;
      struct sigaction ours{};
      ours.sa_sigaction = OnSigint;
      ours.sa_flags = SA_SIGINFO | (current.sa_flags & SA_RESTART);
      sigemptyset(&ours.sa_mask);
      sigaction(SIGINT, &ours, nullptr);
    }
  }
  ++registered;
  if (!wrapped) return;
  for (int i = 0; i < kSlots; ++i) {
    StopSource* expected = nullptr;
    if (sources[i].compare_exchange_strong(expected, &source_, std::memory_order_acq_rel)) {
      slot_ = i;
      return;
    }
  }
}

SigintStop::~SigintStop() {
  const std::lock_guard<std::mutex> lock(install_mutex);
  if (slot_ >= 0) {
    sources[slot_].store(nullptr, std::memory_order_release);
    while (handlers_running.load(std::memory_order_acquire) != 0) {
      // A handler that read the slot before it was cleared finishes in a few instructions.
    }
  }
  if (--registered == 0 && wrapped) {
    sigaction(SIGINT, &previous, nullptr);
    wrapped = false;
  }
}

}  // namespace recflow::python
