// Job locks (non-blocking liveness flocks) and output locks (blocking, self-removing commit flocks).
#include "recflow/dataset/commit_locks_internal.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <functional>
#include <utility>

#include "recflow/dataset/commit_fs_internal.h"

namespace recflow::dataset::internal {

namespace {

/// flock(2), retried when a signal interrupts it.
int Flock(int fd, int operation) {
  int rc;
  do {
    rc = ::flock(fd, operation);
  } while (rc != 0 && errno == EINTR);
  return rc;
}

/// True when `path` names the file open as `fd`.
bool NamesOpenFile(int fd, const std::string& path) {
  struct stat locked, named;
  return ::fstat(fd, &locked) == 0 && ::stat(path.c_str(), &named) == 0 && locked.st_dev == named.st_dev &&
         locked.st_ino == named.st_ino;
}

}  // namespace

Result<JobLock> JobLock::Create(const std::string& path, const std::function<void()>& after_create) {
  while (true) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) return ErrnoError("cannot create lock file", path, errno);
    if (after_create) after_create();
    // Until the flock, another writer's RemoveStaleJobs may take the file for a killed job's,
    // lock it and unlink it: wait for that (it holds the lock briefly), then check the name.
    if (Flock(fd, LOCK_EX) != 0) {
      const int err = errno;
      ::close(fd);
      return ErrnoError("cannot lock", path, err);
    }
    if (NamesOpenFile(fd, path)) return JobLock(fd, path);
    ::close(fd);  // unlinked as stale: create it again
  }
}

Result<JobLock> JobLock::TryAcquire(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Status::NotFound("lock file '" + path + "' vanished");
    return ErrnoError("cannot open lock file", path, errno);
  }
  if (Flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK) return JobLock(-1, path);
    return ErrnoError("cannot lock", path, err);
  }
  return JobLock(fd, path);
}

JobLock::JobLock(JobLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

JobLock& JobLock::operator=(JobLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

JobLock::~JobLock() {
  if (fd_ >= 0) ::close(fd_);
}

Status JobLock::RemoveAndRelease() {
  if (fd_ < 0) return Status::OK();
  const int rc = ::unlink(path_.c_str());
  const int err = errno;
  ::close(std::exchange(fd_, -1));
  if (rc != 0 && err != ENOENT) return ErrnoError("cannot remove lock file", path_, err);
  return Status::OK();
}

namespace {

/// Locks `path` (creating it when `create`): kNone when it does not exist, or is held and
/// `wait` is false; otherwise the locked descriptor, once the path names the file locked.
Result<int> LockOutputFile(const std::string& path, bool create, bool wait) {
  while (true) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0666);
    if (fd < 0) {
      if (!create && errno == ENOENT) return -1;
      return ErrnoError("cannot open lock file", path, errno);
    }
    if (Flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK) return -1;
      return ErrnoError("cannot lock", path, err);
    }
    if (NamesOpenFile(fd, path)) return fd;
    ::close(fd);  // the holder before us unlinked the file we locked
    if (!wait) return -1;
  }
}

}  // namespace

Result<OutputLock> OutputLock::Acquire(const std::string& path) {
  ASSIGN_OR_RETURN(int fd, LockOutputFile(path, /*create=*/true, /*wait=*/true));
  return OutputLock(fd, path);
}

Result<std::optional<OutputLock>> OutputLock::TryAcquire(const std::string& path) {
  ASSIGN_OR_RETURN(int fd, LockOutputFile(path, /*create=*/false, /*wait=*/false));
  if (fd < 0) return std::optional<OutputLock>();
  return std::optional<OutputLock>(OutputLock(fd, path));
}

OutputLock::OutputLock(OutputLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
  if (this != &other) {
    Release();
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

OutputLock::~OutputLock() { Release(); }

void OutputLock::Release() {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());
  ::close(std::exchange(fd_, -1));
}

}  // namespace recflow::dataset::internal
