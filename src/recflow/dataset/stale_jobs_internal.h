// Removing what killed jobs left beside an output (staging trees, old trees, lock files).
#pragma once

#include "recflow/core/filesystem.h"
#include "recflow/core/status.h"
#include "recflow/dataset/staging_names_internal.h"

namespace recflow::dataset::internal {

/// Removes, on `fs`, every stale job's leftovers beside `paths.output`. A job is stale when its lock file
/// exists but nobody holds it (the kernel drops a killed process's flock), or when it left
/// names without a lock file (the lock is created first and removed last, so such names never
/// belong to a live job). Live jobs are left alone. A stale job killed between the two renames
/// of a commit on a file system without RENAME_EXCHANGE (its old tree aside, its staging tree
/// still there, the output missing) has its old tree moved back: the output is the previous
/// dataset again. An output lock file nobody holds is removed too. Only writers call this;
/// readers never write.
Status RemoveStaleJobs(FileSystem& fs, const OutputPaths& paths);

}  // namespace recflow::dataset::internal
