// KillPoint: a test hook that kills the process with SIGKILL at a named point of a run, so tests can crash it exactly there.
#pragma once

#include <string_view>

namespace recflow {

/// When the environment variable RECFLOW_KILL_AT is `name:N` and this is the N-th time (from 1)
/// the process reaches point `name`, it kills itself with SIGKILL: nothing after runs, as in a
/// crash. Otherwise nothing (one comparison once the variable was read). Thread-safe.
void KillPoint(std::string_view name);

}  // namespace recflow
