// Finding stale jobs beside an output by their unheld locks and removing what they left.
#include "recflow/dataset/stale_jobs_internal.h"

#include <map>
#include <vector>

#include "recflow/dataset/commit_locks_internal.h"

namespace recflow::dataset::internal {

namespace {

/// Removes one stale job's names (`names`, in the parent), its lock file last.
Status RemoveJob(FileSystem& fs, const OutputPaths& paths, const std::string& job, const std::vector<std::string>& names) {
  const std::string lock_path = paths.JobLockPath(job);
  std::optional<JobLock> lock;
  ASSIGN_OR_RETURN(const bool locked, fs.Exists(lock_path));
  if (locked) {
    Result<JobLock> tried = JobLock::TryAcquire(fs, lock_path);
    if (!tried.ok() && tried.status().code() == StatusCode::kNotFound) return Status::OK();  // just finished
    RETURN_NOT_OK(tried.status());
    if (!tried->held()) return Status::OK();  // a live job
    lock.emplace(std::move(tried).ValueUnsafe());
  }
  const std::string staging = paths.Staging(job);
  const std::string aside = paths.Aside(job);
  ASSIGN_OR_RETURN(const bool aside_there, fs.IsDirectory(aside));
  ASSIGN_OR_RETURN(const bool staging_there, fs.IsDirectory(staging));
  if (aside_there && staging_there) {
    // Killed, or failed, between the two renames of a swap without RENAME_EXCHANGE: the aside
    // tree is the only copy of the old dataset. Put it back; never remove it.
    ASSIGN_OR_RETURN(const bool output_there, fs.Exists(paths.output));
    const Status st = output_there ? Status::AlreadyExists("it exists again")
                                   : fs.Move(aside, paths.output, MoveMode::kNoReplace);
    if (!st.ok()) {
      return Status::IOError("an interrupted commit left the previous dataset of '" + paths.output + "' at '" + aside +
                             "', which cannot be moved back (" + st.message() + "): move it back, or remove it, " +
                             "by hand");
    }
  }
  for (const std::string& name : names) {
    const std::string path = paths.parent + "/" + name;
    if (path != lock_path) RETURN_NOT_OK(fs.RemoveTree(path));
  }
  return lock ? lock->RemoveAndRelease() : Status::OK();
}

}  // namespace

Status RemoveStaleJobs(FileSystem& fs, const OutputPaths& paths) {
  ASSIGN_OR_RETURN(std::vector<std::string> names, fs.ListDirectory(paths.parent));
  std::map<std::string, std::vector<std::string>> jobs;
  for (const std::string& name : names) {
    if (std::optional<std::string> job = paths.JobOf(name)) jobs[*job].push_back(name);
  }
  for (const auto& [job, job_names] : jobs) RETURN_NOT_OK(RemoveJob(fs, paths, job, job_names));
  // A killed writer's output lock file: removed (under the lock) unless a live writer holds it.
  ASSIGN_OR_RETURN(std::optional<OutputLock> output_lock, OutputLock::TryAcquire(fs, paths.OutputLockPath()));
  if (output_lock) output_lock->Release();
  return Status::OK();
}

}  // namespace recflow::dataset::internal
