// What a save mode keeps of the committed dataset: hard links of its entries in the job's staging tree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/core/filesystem.h"
#include "recflow/core/result.h"
#include "recflow/dataset/save_mode.h"

namespace recflow::dataset::internal {

/// AlreadyExists naming the output as `name` when `output` (on `fs`) exists and holds anything besides a
/// `_temporary` directory an earlier recflow version left (which counts as empty).
Status RequireNoCommittedContent(FileSystem& fs, const std::string& output, const std::string& name);

/// DataError naming the journal when `output` holds `_temporary/<job>/JOURNAL`: a commit of
/// an earlier recflow version (journal protocol) was killed there, so the dataset may be a mix
/// of old and new files that a new `_SUCCESS` must not vouch for. Save mode overwrite, which
/// replaces everything, is let through.
Status RefuseUnfinishedLegacyCommit(FileSystem& fs, const std::string& output, const std::string& name, SaveMode mode);

/// Completes the staging tree `staging`, which holds the job's own files `staged_files`
/// (relative paths), with hard links of what `mode` keeps of the dataset in `output`:
/// - error, overwrite: nothing;
/// - append: every entry, except the top-level names in `replaced_top_level` (the `_SUCCESS`
///   marker and files the job rewrites) and a legacy `_temporary`;
/// - overwrite-partitions: the same, minus the partitions the job writes: the parent
///   directories of its files, leaving out those inside another one. A staged file at the top
///   level makes the whole dataset one partition: nothing is kept, as in overwrite.
/// Directories are recreated (with their permission bits), everything else (files, symlinks)
/// is hard-linked, so kept data is never copied and the old tree can be deleted after the swap
/// without touching it. AlreadyExists naming the path when a kept entry collides with a staged
/// one (an append of a file name the dataset already has, a file where the job needs a
/// directory). Returns how many entries were kept.
Result<int64_t> LinkKeptEntries(FileSystem& fs, const std::string& output, const std::string& staging, SaveMode mode,
                                const std::vector<std::string>& staged_files,
                                const std::vector<std::string>& replaced_top_level);

}  // namespace recflow::dataset::internal
