// The two flock(2)s of the commit protocol: a job's liveness lock and the lock that serialises commits to one output.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "recflow/core/result.h"

namespace recflow::dataset::internal {

/// An exclusive flock(2) on a job's lock file, held for the job's whole life. A killed
/// process's locks are released by the kernel, which is how a job's leftovers are known to be
/// stale.
class JobLock {
 public:
  /// Creates `path` (it must not exist) and locks it. Should another writer remove the new file
  /// as a killed job's before it is locked (RemoveStaleJobs), creates it again, so that the lock
  /// held is always on the file `path` names. `after_create` (a test hook) runs between the
  /// creation and the lock.
  static Result<JobLock> Create(const std::string& path, const std::function<void()>& after_create = {});
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

/// The exclusive flock(2) that serialises the commits of every recflow process writing one
/// output: held from the moment a commit reads the output (to keep its files) until the swap,
/// so that two appends never lose each other's files. The lock file exists only while held:
/// releasing unlinks it first, and a waiter that then gets the lock on the unlinked file
/// notices (the path no longer names the file it locked) and tries again.
class OutputLock {
 public:
  /// Waits for the lock on `path`, creating the file.
  static Result<OutputLock> Acquire(const std::string& path);
  /// The lock on an existing `path` if nobody holds it (a killed writer's lock file),
  /// std::nullopt when the file does not exist or is held.
  static Result<std::optional<OutputLock>> TryAcquire(const std::string& path);
  OutputLock(OutputLock&& other) noexcept;
  OutputLock& operator=(OutputLock&& other) noexcept;
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;
  /// Releases the lock (see Release).
  ~OutputLock();
  /// The lock file.
  const std::string& path() const { return path_; }
  /// Unlinks the lock file and releases the lock; does nothing when not held.
  void Release();

 private:
  OutputLock(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
};

}  // namespace recflow::dataset::internal
