// Job locks (non-blocking liveness locks) and output locks (blocking, self-removing commit locks) over FileSystem::LockFile.
#include "recflow/dataset/commit_locks_internal.h"

#include <utility>

namespace recflow::dataset::internal {

Result<JobLock> JobLock::Create(FileSystem& fs, const std::string& path, const std::function<void()>& after_create) {
  LockOptions options;
  options.creation = LockOptions::Creation::kCreateNew;
  options.before_lock = after_create;
  while (true) {
    // Until the lock, another writer's RemoveStaleJobs may take the file for a killed job's,
    // lock it and unlink it: wait for that (it holds the lock briefly), then check the name.
    ASSIGN_OR_RETURN(std::unique_ptr<FileLock> lock, fs.LockFile(path, options));
    if (lock->NamesLockedFile()) return JobLock(std::move(lock));
    // unlinked as stale: create it again
  }
}

Result<JobLock> JobLock::TryAcquire(FileSystem& fs, const std::string& path) {
  LockOptions options;
  options.creation = LockOptions::Creation::kExisting;
  options.wait = false;
  Result<std::unique_ptr<FileLock>> lock = fs.LockFile(path, options);
  if (!lock.ok() && lock.status().code() == StatusCode::kNotFound) {
    return Status::NotFound("lock file '" + path + "' vanished");
  }
  RETURN_NOT_OK(lock.status());
  return JobLock(std::move(lock).ValueUnsafe());
}

Status JobLock::RemoveAndRelease() {
  if (lock_ == nullptr) return Status::OK();
  Status st = lock_->UnlinkAndRelease();
  lock_.reset();
  return st;
}

namespace {

/// Locks `path` (creating it when `wait`): null when it does not exist, or is held and `wait`
/// is false; otherwise the lock, once the path names the file locked.
Result<std::unique_ptr<FileLock>> LockOutputFile(FileSystem& fs, const std::string& path, bool wait) {
  LockOptions options;
  options.creation = wait ? LockOptions::Creation::kCreate : LockOptions::Creation::kExisting;
  options.wait = wait;
  while (true) {
    Result<std::unique_ptr<FileLock>> lock = fs.LockFile(path, options);
    if (!wait && !lock.ok() && lock.status().code() == StatusCode::kNotFound) return std::unique_ptr<FileLock>();
    RETURN_NOT_OK(lock.status());
    if (*lock == nullptr || (*lock)->NamesLockedFile()) return lock;
    // the holder before us unlinked the file we locked
    if (!wait) return std::unique_ptr<FileLock>();
  }
}

}  // namespace

Result<OutputLock> OutputLock::Acquire(FileSystem& fs, const std::string& path) {
  ASSIGN_OR_RETURN(std::unique_ptr<FileLock> lock, LockOutputFile(fs, path, /*wait=*/true));
  return OutputLock(std::move(lock), path);
}

Result<std::optional<OutputLock>> OutputLock::TryAcquire(FileSystem& fs, const std::string& path) {
  ASSIGN_OR_RETURN(std::unique_ptr<FileLock> lock, LockOutputFile(fs, path, /*wait=*/false));
  if (lock == nullptr) return std::optional<OutputLock>();
  return std::optional<OutputLock>(OutputLock(std::move(lock), path));
}

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
  if (this != &other) {
    Release();
    lock_ = std::move(other.lock_);
    path_ = std::move(other.path_);
  }
  return *this;
}

OutputLock::~OutputLock() { Release(); }

void OutputLock::Release() {
  if (lock_ == nullptr) return;
  (void)lock_->UnlinkAndRelease();
  lock_.reset();
}

}  // namespace recflow::dataset::internal
