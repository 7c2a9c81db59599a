// RunInterruptibly: native work on a thread of its own while the calling Python thread waits without the GIL and
// answers Ctrl-C by requesting a stop through the work's stop token.
#pragma once

#include <functional>

#include "recflow/core/status.h"
#include "recflow/core/stop_token.h"

namespace recflow::python {

/// Runs `job` on a new thread with a fresh stop token and waits for it, the GIL released. Every
/// kSignalCheckPeriod the waiting thread takes the GIL and runs Python's pending signal handlers
/// (PyErr_CheckSignals: only the main thread has any); when one raises (KeyboardInterrupt for
/// Ctrl-C), the job's stop is requested (naming SIGINT) and, once the job returned (a run stops
/// taking input, aborts its outputs and returns Cancelled), that exception is raised
/// (py::error_already_set). Otherwise returns the job's status. Call with the GIL held.
Status RunInterruptibly(const std::function<Status(const StopToken&)>& job);

}  // namespace recflow::python
