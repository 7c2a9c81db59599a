// Planning a commit: which renames, in which order, make a staged job the committed dataset.
#pragma once

#include <string>
#include <vector>

#include "recflow/dataset/commit_journal_internal.h"
#include "recflow/dataset/save_mode.h"

namespace recflow::dataset::internal {

/// AlreadyExists naming `output` when it holds anything besides `_temporary`.
Status RequireNoCommittedContent(const std::string& output);

/// The journal that commits job `job_rel` (its directory relative to `output`, holding the staged
/// tree in `data/`, an empty `_SUCCESS`, and receiving displaced entries in `backup/<n>`) whose
/// staged files are `staged_files` (relative to `data/`), under `mode`:
/// - error: refuse (AlreadyExists) unless the output holds nothing committed, then move the
///   staged top-level entries in;
/// - overwrite: move every committed top-level entry aside, then the staged ones in;
/// - append: refuse (AlreadyExists, before anything moves) a staged file whose final path exists
///   or has a non-directory ancestor, then move the old `_SUCCESS` aside and each file in;
/// - overwrite-partitions: the replaced partitions are the staged files' parent directories
///   (minus those inside another one); each is moved aside if it exists, then the staged one in.
///   A staged file at the top level makes the whole dataset one partition: overwrite.
/// Every plan ends by moving the job's `_SUCCESS` into place.
Result<CommitJournal> PlanCommit(const std::string& output, const std::string& job_rel, SaveMode mode,
                                 const std::vector<std::string>& staged_files);

}  // namespace recflow::dataset::internal
