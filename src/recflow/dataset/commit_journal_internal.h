// The commit journal: the durable list of renames that turns a staged job into the committed dataset.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/result.h"

namespace recflow::dataset::internal {

/// File name of the journal inside a job directory; its presence is the commit point.
inline constexpr std::string_view kJournalName = "JOURNAL";

/// One move of the commit, both paths relative to the output directory.
struct RenameStep {
  std::string from;  ///< what is moved
  std::string to;    ///< where it goes; must not exist when the step runs
  /// Same paths.
  bool operator==(const RenameStep&) const = default;
};

/// The renames of one commit, in the order they must run.
struct CommitJournal {
  std::vector<RenameStep> steps;  ///< applied front to back
  /// Same steps.
  bool operator==(const CommitJournal&) const = default;
};

/// Called after each durable step of a commit or recovery with the step's description.
using StepHook = std::function<void(std::string_view step)>;

/// Writes `journal` to `job_dir/JOURNAL` atomically (a temporary file, fsync, rename, fsync of
/// `job_dir` when `sync`), so the journal either exists complete or not at all.
Status WriteJournal(const std::string& job_dir, const CommitJournal& journal, bool sync);

/// The journal of `job_dir`, std::nullopt when it has none (the job never reached its commit
/// point). DataError naming the file when it is malformed.
Result<std::optional<CommitJournal>> ReadJournal(const std::string& job_dir);

/// Deletes `job_dir/JOURNAL` (fsyncing `job_dir` when `sync`). Must happen after the journal was
/// applied and before anything else of the job directory is removed: replaying a journal whose
/// backup or staging directories are half deleted could move new data aside.
Status RemoveJournal(const std::string& job_dir, bool sync);

/// Runs the steps of `journal` under `output`, finishing a commit that may have been
/// interrupted at any point: a step whose destination exists is already done; otherwise its
/// source is moved there (creating parent directories) with a no-replace rename. Idempotent.
/// When `sync`, fsyncs every directory the steps touched. Calls `hook` (if set) after each step.
/// When neither source nor destination exists, a step moving committed data aside (into
/// `_temporary`) is skipped, as that data is already gone; any other such step is an Internal
/// error naming it.
Status ApplyJournal(const std::string& output, const CommitJournal& journal, bool sync, const StepHook& hook);

}  // namespace recflow::dataset::internal
