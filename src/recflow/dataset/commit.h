// DatasetCommitter: stage a job's files under OUTPUT/_temporary and commit them atomically.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "recflow/core/result.h"
#include "recflow/dataset/save_mode.h"

namespace recflow::dataset {

namespace internal {
/// The flock(2) a live job holds on its lock file (commit_fs_internal.h).
class JobLock;
}  // namespace internal

/// The directory under an output that holds the jobs in progress (invisible to readers).
inline constexpr std::string_view kTemporaryDirName = "_temporary";

/// The empty marker file a commit writes last, as Spark and Hadoop do.
inline constexpr std::string_view kSuccessFileName = "_SUCCESS";

/// Options of one commit job.
struct CommitOptions {
  /// The job id naming `_temporary/<job_id>/`: a canonical UUID, or empty for a fresh one from
  /// NewRandomUuid(). Pass the ShardNamer's job_uuid to share it with Spark-style shard names.
  std::string job_id;
  /// fsync staged files, the journal and every directory the commit touches, so that the commit
  /// also survives power loss. Without it, it still survives a crash or kill of the process.
  bool sync = true;
  /// Test hook: called after every step of Commit() (staging synced, journal written, each
  /// rename, journal removed) with a description of the step; may be empty.
  std::function<void(std::string_view step)> after_step;

  /// A fresh job id, sync on, no hook.
  static CommitOptions Defaults();
  /// InvalidArgument when job_id is neither empty nor a canonical UUID.
  Status Validate() const;
};

/// InvalidArgument unless `relative_path` is a path a job may stage: non-empty, relative, made of
/// `/`-separated components that are non-empty, at most 255 bytes, hold no control characters,
/// and do not start with `.` or `_` (so `..` and `.` are refused, and nothing hides from readers
/// or collides with `_SUCCESS` or `_temporary`).
Status ValidateStagedPath(std::string_view relative_path);

/// Finishes what crashed jobs left in `output/_temporary`, as the next Begin() would: commits
/// past their commit point are completed, the others' staging deleted; live jobs are left
/// alone. Does nothing when there is no `_temporary`. Readers call this before listing a
/// dataset directory, so they see the previous dataset or the complete new one, never a mix.
Status RecoverDataset(const std::string& output);

/// The commit protocol of one job writing a dataset directory (see "Commit protocol" in
/// docs/formats/datasets.md). Writers create their files at the paths NewFilePath() gives;
/// Commit() moves them into the output so that a crash at any moment, once the next Begin() on
/// the same output has recovered, leaves either the previous dataset or the complete new one.
/// Not thread-safe; one committer per job.
class DatasetCommitter {
 public:
  /// Starts a job on directory `output` (created when missing): recovers the stale jobs crashed
  /// runs left in `output/_temporary` (finishing commits that passed their commit point,
  /// deleting the others), refuses with AlreadyExists under SaveMode::kErrorIfExists when the
  /// output holds committed content (anything besides `_temporary`), then creates and locks
  /// `output/_temporary/<job-id>/`.
  static Result<std::unique_ptr<DatasetCommitter>> Begin(const std::string& output, SaveMode mode,
                                                         CommitOptions options = CommitOptions::Defaults());
  /// Aborts the job unless it was committed or aborted.
  ~DatasetCommitter();
  DatasetCommitter(const DatasetCommitter&) = delete;
  DatasetCommitter& operator=(const DatasetCommitter&) = delete;

  /// The staging path of data file `relative_path` (checked by ValidateStagedPath), its parent
  /// directories created. Writers need not fsync: Commit() does.
  Result<std::string> NewFilePath(const std::string& relative_path);

  /// Fsyncs the staged files (when options.sync), plans the renames for the save mode (refusing
  /// append collisions and, under kErrorIfExists, an output that gained content, before anything
  /// moves), writes the journal (the commit point), applies it, writes `_SUCCESS` last and
  /// removes the job directory. An error after the commit point leaves the journal for Abort()
  /// or the next Begin() to finish.
  Status Commit();

  /// Removes the job's staging directory and lock. When the job already passed its commit point
  /// (Commit() failed after writing the journal), the commit is finished instead.
  Status Abort();

  /// The job's id (a UUID).
  const std::string& job_id() const { return job_id_; }
  /// The output directory.
  const std::string& output() const { return output_; }
  /// The save mode.
  SaveMode mode() const { return mode_; }

 private:
  DatasetCommitter(std::string output, SaveMode mode, CommitOptions options, std::string job_id,
                   std::unique_ptr<internal::JobLock> lock);
  /// `output/_temporary/<job-id>`.
  std::string JobDir() const;
  /// Calls the options' after_step hook, if any.
  void AfterStep(std::string_view step) const;
  /// Removes the job directory and lock; the job is over.
  Status Finish();

  std::string output_;
  SaveMode mode_;
  CommitOptions options_;
  std::string job_id_;
  std::unique_ptr<internal::JobLock> lock_;
  bool finished_ = false;
};

}  // namespace recflow::dataset
