// SIGTERM and SIGINT: the first drains an unbounded run or asks any other command to stop (a Cancelled status); the
// next one stops a draining run; one the command cannot stop for ends it at once.
#pragma once

#include <atomic>
#include <memory>

#include "recflow/core/stop_token.h"

namespace recflow::cli {

/// The tokens termination signals request (HandleTerminationSignals).
struct TerminationTokens {
  /// Stops the command (ExecContext::stop_token).
  StopToken stop;
  /// Drains an unbounded run (ExecContext::drain_token); requested only once `drain_first` is set.
  StopToken drain;
  /// Set by a command once it knows it runs an unbounded pipeline: from then on the first signal
  /// requests `drain` instead of `stop`.
  std::shared_ptr<std::atomic<bool>> drain_first;
};

/// Blocks SIGTERM and SIGINT in the calling thread, and so in every thread started after it,
/// and starts a thread that waits for them; returns the tokens they request. Call before any
/// other thread starts.
///
/// While `drain_first` is set, the first signal requests the drain (saying so on stderr): the
/// run stops reading its unbounded inputs, every open window fires, the outputs commit and the
/// command exits 0. Any other first signal, and the one after a drain, requests a stop naming
/// itself: the command stops taking input, aborts its unfinished outputs and returns Cancelled,
/// which the caller reports and maps to 128 + the signal (130 for SIGINT, 143 for SIGTERM; see
/// ExitCodeOf). When no stop can be requested — one more signal (a command stuck in a read
/// that never returns), or the command passed its point of no return (the swap of a commit) —
/// that thread takes the hard path: it removes every unfinished output of the process
/// (dataset::RemoveUnfinishedOutputs: it waits for a swap in progress and keeps any later one
/// from starting), prints on stderr what it removed, and exits at once with 128 + the signal number.
TerminationTokens HandleTerminationSignals();

}  // namespace recflow::cli
