// File system primitives of the commit protocol: fsync, no-replace rename, listing, removal, job locks.
#pragma once

#include <string>
#include <vector>

#include "recflow/core/result.h"

namespace recflow::dataset::internal {

/// True when `path` names anything (lstat(2) succeeds; a dangling symlink counts).
bool PathExists(const std::string& path);

/// True when `path` is a directory (not following a final symlink).
bool IsDirectory(const std::string& path);

/// fsync(2) of a file or directory opened read-only; IOError naming it on failure.
Status SyncPath(const std::string& path);

/// renameat2(2) with RENAME_NOREPLACE: moves `from` to `to` atomically, failing (AlreadyExists)
/// when `to` exists. Never overwrites, so a replayed or racing move cannot clobber data.
Status RenameNoReplace(const std::string& from, const std::string& to);

/// mkdir -p; IOError naming the path on failure (including an existing non-directory).
Status CreateDirectories(const std::string& path);

/// Names in directory `path` (not `.`/`..`), sorted; IOError when it cannot be listed.
Result<std::vector<std::string>> ListDirectory(const std::string& path);

/// Paths of every non-directory under `root`, relative to it, sorted; directories are walked.
Result<std::vector<std::string>> ListFilesRecursively(const std::string& root);

/// Paths of every directory under `root` (root included), absolute.
Result<std::vector<std::string>> ListDirectoriesRecursively(const std::string& root);

/// rm -rf; success when `path` does not exist.
Status RemoveTree(const std::string& path);

/// rmdir(2) when `path` is an empty directory; does nothing otherwise (best effort tidying).
void RemoveDirectoryIfEmpty(const std::string& path);

/// Creates (or truncates) an empty file and, when `sync`, fsyncs it.
Status WriteEmptyFile(const std::string& path, bool sync);

/// An exclusive flock(2) on a lock file, held until destruction. A crashed process's locks are
/// released by the kernel, which is how a job directory is known to be stale.
class JobLock {
 public:
  /// Creates `path` (it must not exist) and locks it.
  static Result<JobLock> Create(const std::string& path);
  /// Locks an existing `path` without waiting. The result does not hold the lock (held() is
  /// false) when a live process holds it; NotFound when the file does not exist.
  static Result<JobLock> TryAcquire(const std::string& path);
  JobLock(JobLock&& other) noexcept;
  JobLock& operator=(JobLock&& other) noexcept;
  JobLock(const JobLock&) = delete;
  JobLock& operator=(const JobLock&) = delete;
  ~JobLock();
  /// True when this object holds the lock.
  bool held() const { return fd_ >= 0; }
  /// Unlinks the lock file (while still holding it) and releases the lock.
  Status RemoveAndRelease();

 private:
  JobLock(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
};

}  // namespace recflow::dataset::internal
