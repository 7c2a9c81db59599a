// ExecContext: what a run executes with — its worker threads and its stop token — passed through stages and sinks.
#pragma once

#include "recflow/core/status.h"
#include "recflow/core/stop_token.h"

namespace recflow {

/// How and under what control a job runs. Cheap to copy; jobs take it by const reference.
struct ExecContext {
  /// Worker threads; 0 = every core.
  int threads = 0;
  /// Checked between units: once a stop is requested, a job stops taking input, drains what it
  /// has in flight, aborts its outputs and returns Cancelled. Never stopped by default.
  StopToken stop_token;

  /// Every core, never stopped.
  static ExecContext Defaults() { return {}; }
  /// InvalidArgument for negative threads.
  Status Validate() const;
  /// The worker threads `threads` means (every core for 0).
  int ResolvedThreads() const;
};

}  // namespace recflow
