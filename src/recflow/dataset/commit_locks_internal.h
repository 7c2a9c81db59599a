// The two locks of the commit protocol: a job's liveness lock and the lock that serialises commits to one output.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "recflow/core/filesystem.h"
#include "recflow/core/result.h"

namespace recflow::dataset::internal {

/// An exclusive lock (FileSystem::LockFile) on a job's lock file, held for the job's whole
/// life. A killed process's locks are released (the kernel drops its flocks), which is how a
/// job's leftovers are known to be stale.
class JobLock {
 public:
  /// Creates `path` (it must not exist) and locks it. Should another writer remove the new file
  /// as a killed job's before it is locked (RemoveStaleJobs), creates it again, so that the lock
  /// held is always on the file `path` names. `after_create` (a test hook) runs between the
  /// creation and the lock.
  static Result<JobLock> Create(FileSystem& fs, const std::string& path, const std::function<void()>& after_create = {});
  /// Locks an existing `path` without waiting. The result does not hold the lock (held() is
  /// false) when a live process holds it; NotFound when the file does not exist.
  static Result<JobLock> TryAcquire(FileSystem& fs, const std::string& path);
  /// True when this object holds the lock.
  bool held() const { return lock_ != nullptr; }
  /// Unlinks the lock file (while still holding it) and releases the lock.
  Status RemoveAndRelease();

 private:
  explicit JobLock(std::unique_ptr<FileLock> lock) : lock_(std::move(lock)) {}
  std::unique_ptr<FileLock> lock_;
};

/// The exclusive lock that serialises the commits of every recflow process writing one
/// output: held from the moment a commit reads the output (to keep its files) until the swap,
/// so that two appends never lose each other's files. The lock file exists only while held:
/// releasing unlinks it first, and a waiter that then gets the lock on the unlinked file
/// notices (the path no longer names the file it locked) and tries again.
class OutputLock {
 public:
  /// Waits for the lock on `path`, creating the file.
  static Result<OutputLock> Acquire(FileSystem& fs, const std::string& path);
  /// The lock on an existing `path` if nobody holds it (a killed writer's lock file),
  /// std::nullopt when the file does not exist or is held.
  static Result<std::optional<OutputLock>> TryAcquire(FileSystem& fs, const std::string& path);
  OutputLock(OutputLock&& other) noexcept = default;
  OutputLock& operator=(OutputLock&& other) noexcept;
  /// Releases the lock (see Release).
  ~OutputLock();
  /// The lock file.
  const std::string& path() const { return path_; }
  /// Unlinks the lock file and releases the lock; does nothing when not held.
  void Release();

 private:
  OutputLock(std::unique_ptr<FileLock> lock, std::string path) : lock_(std::move(lock)), path_(std::move(path)) {}
  std::unique_ptr<FileLock> lock_;
  std::string path_;
};

}  // namespace recflow::dataset::internal
