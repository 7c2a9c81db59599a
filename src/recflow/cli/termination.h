// SIGTERM and SIGINT during convert and run: remove the unfinished outputs, say so, exit 143 or 130.
#pragma once

namespace recflow::cli {

/// Blocks SIGTERM and SIGINT in the calling thread, and so in every thread started after it,
/// and starts a thread that waits for them. On either, that thread removes every unfinished
/// output of the process (dataset::RemoveUnfinishedOutputs: it waits for a swap in progress and
/// keeps any later one from starting), prints on stderr what it removed, and exits at once with
/// 128 + the signal number (143 for SIGTERM, 130 for SIGINT). Call before any other thread
/// starts. A stand-in until cancellation becomes a status flowing through ExecContext.
void HandleTerminationSignals();

}  // namespace recflow::cli
