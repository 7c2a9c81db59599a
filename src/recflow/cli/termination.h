// SIGTERM and SIGINT: the first asks the command to stop (a Cancelled status); a second, or one it cannot stop for, ends it at once.
#pragma once

#include "recflow/core/stop_token.h"

namespace recflow::cli {

/// Blocks SIGTERM and SIGINT in the calling thread, and so in every thread started after it,
/// and starts a thread that waits for them; returns the token they stop. Call before any other
/// thread starts.
///
/// The first signal requests a stop naming itself: the command stops taking input, aborts its
/// unfinished outputs and returns Cancelled, which the caller reports and maps to 128 + the
/// signal (130 for SIGINT, 143 for SIGTERM; see ExitCodeOf). When no stop can be requested —
/// a second signal (a command stuck in a read that never returns), or the command passed its
/// point of no return (the swap of a commit) — that thread takes the hard path: it removes every
/// unfinished output of the process (dataset::RemoveUnfinishedOutputs: it waits for a swap in
/// progress and keeps any later one from starting), prints on stderr what it removed, and exits
/// at once with 128 + the signal number.
StopToken HandleTerminationSignals();

}  // namespace recflow::cli
