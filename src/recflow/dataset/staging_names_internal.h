// Where a job on one output keeps its staging tree and locks: hidden siblings of the output in its parent directory.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "recflow/core/filesystem.h"
#include "recflow/core/result.h"

namespace recflow::dataset::internal {

/// The paths of the commit protocol for one output directory. Everything a job creates
/// besides the output itself lives in the output's parent, under names starting with
/// `.<name>.recflow-` (`<name>` being the output's own name; a name longer than 190 bytes is
/// cut to its first 181 and `~` and the CRC-32C of the whole name in 8 hex digits, so that every
/// name fits in 255 and long names sharing a start do not share a stem): hidden from readers of the parent as from readers of the output, and on
/// the output's file system (so that renames between them are atomic).
struct OutputPaths {
  std::string output;  ///< the output, absolute, symlinks in it resolved
  std::string parent;  ///< its parent directory
  std::string stem;    ///< `<parent>/.<name>.recflow-`

  /// The paths of `output` on `fs` (made absolute; symlinks resolved as far as it exists).
  /// InvalidArgument when it is empty or the root directory.
  static Result<OutputPaths> For(const FileSystem& fs, const std::string& output);

  /// The job's staging tree: the complete new dataset, swapped with the output at commit; after
  /// the swap it holds the old one until that is deleted.
  std::string Staging(std::string_view job_id) const { return stem + std::string(job_id); }
  /// The job's lock file, flock(2)ed for the job's whole life (created before anything else of
  /// the job, removed after everything else).
  std::string JobLockPath(std::string_view job_id) const { return Staging(job_id) + ".lock"; }
  /// Where the old dataset goes on a file system without RENAME_EXCHANGE (see Commit()).
  std::string Aside(std::string_view job_id) const { return Staging(job_id) + ".old"; }
  /// Where the commit puts the job's task attempts it did not adopt (DatasetCommitter::AttemptsDir) out of the
  /// staging tree, to be removed with the job's other names: an attempt still running (its worker lost, not dead)
  /// can neither fail the commit nor reach the output.
  std::string DiscardedAttempts(std::string_view job_id) const { return Staging(job_id) + ".attempts"; }
  /// The lock file that serialises commits to the output (OutputLock).
  std::string OutputLockPath() const { return stem + "lock"; }

  /// The job id of a name in the parent directory that belongs to a job on this output
  /// (`.<name>.recflow-<job id>` followed by anything), std::nullopt for any other name.
  std::optional<std::string> JobOf(std::string_view name_in_parent) const;
};

/// Suffix the termination handler appends to a directory it is removing (see staging_registry.h).
inline constexpr std::string_view kRemovingSuffix = ".removing";

}  // namespace recflow::dataset::internal
