// Finding stale job directories by their unheld locks and rolling their commits forward or back.
#include "recflow/dataset/stale_jobs_internal.h"

#include <vector>

#include "recflow/dataset/commit.h"
#include "recflow/dataset/commit_fs_internal.h"
#include "recflow/dataset/commit_journal_internal.h"

namespace recflow::dataset::internal {

namespace {

/// Replays the job's journal if it has one, then deletes the job directory.
Status RecoverJob(const std::string& output, const std::string& job_dir, bool sync) {
  ASSIGN_OR_RETURN(std::optional<CommitJournal> journal, ReadJournal(job_dir));
  if (journal) {
    RETURN_NOT_OK(ApplyJournal(output, *journal, sync, nullptr));
    RETURN_NOT_OK(RemoveJournal(job_dir, sync));
  }
  return RemoveTree(job_dir);
}

}  // namespace

Status RecoverStaleJobs(const std::string& output, bool sync) {
  const std::string temporary = output + "/" + std::string(kTemporaryDirName);
  if (!IsDirectory(temporary)) return Status::OK();
  ASSIGN_OR_RETURN(std::vector<std::string> names, ListDirectory(temporary));
  for (const std::string& name : names) {
    const std::string path = temporary + "/" + name;
    if (name.ends_with(kLockSuffix)) {
      Result<JobLock> lock = JobLock::TryAcquire(path);
      if (!lock.ok() && lock.status().code() == StatusCode::kNotFound) continue;  // another cleaner was faster
      RETURN_NOT_OK(lock.status());
      if (!lock->held()) continue;  // a live job
      RETURN_NOT_OK(RecoverJob(output, temporary + "/" + name.substr(0, name.size() - kLockSuffix.size()), sync));
      RETURN_NOT_OK(lock->RemoveAndRelease());
    } else if (IsDirectory(path) && !PathExists(path + std::string(kLockSuffix))) {
      // Locks are created before their directories, so a directory without one is an orphan.
      RETURN_NOT_OK(RecoverJob(output, path, sync));
    }
  }
  RemoveDirectoryIfEmpty(temporary);
  return Status::OK();
}

}  // namespace recflow::dataset::internal
