// Recovering the jobs a crashed process left under OUTPUT/_temporary.
#pragma once

#include <string>
#include <string_view>

#include "recflow/core/status.h"

namespace recflow::dataset::internal {

/// Suffix of a job's lock file `_temporary/<job-id>.lock`, created and flock(2)ed before the job
/// directory `_temporary/<job-id>/` and removed after it.
inline constexpr std::string_view kLockSuffix = ".lock";

/// Finishes or discards every stale job under `output/_temporary`: a job is stale when no live
/// process holds its lock (the kernel drops a killed process's flock), or when its directory has
/// no lock file at all. A stale job with a journal passed its commit point, so its journal is
/// replayed (roll forward); one without a journal never touched the dataset and is deleted.
/// Live jobs are left alone. Removes `_temporary` when it ends up empty.
Status RecoverStaleJobs(const std::string& output, bool sync);

}  // namespace recflow::dataset::internal
