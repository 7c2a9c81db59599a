// File system primitives of the commit protocol, over POSIX calls and std::filesystem without exceptions.
#include "recflow/dataset/commit_fs_internal.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

namespace recflow::dataset::internal {

namespace fs = std::filesystem;

namespace {

Status ErrnoError(const std::string& what, const std::string& path, int err) {
  return Status::IOError(what + " '" + path + "': " + std::strerror(err));
}

Status CodeError(const std::string& what, const std::string& path, const std::error_code& ec) {
  return Status::IOError(what + " '" + path + "': " + ec.message());
}

}  // namespace

bool PathExists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

Status SyncPath(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoError("cannot open for fsync", path, errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return ErrnoError("cannot fsync", path, err);
  return Status::OK();
}

Status RenameNoReplace(const std::string& from, const std::string& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return Status::OK();
  const int err = errno;
  if (err == EEXIST) return Status::AlreadyExists("cannot move '" + from + "' to '" + to + "': destination exists");
  return Status::IOError("cannot move '" + from + "' to '" + to + "': " + std::strerror(err));
}

Status CreateDirectories(const std::string& path) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return CodeError("cannot create directory", path, ec);
  if (!IsDirectory(path)) return Status::IOError("cannot create directory '" + path + "': not a directory");
  return Status::OK();
}

Result<std::vector<std::string>> ListDirectory(const std::string& path) {
  std::error_code ec;
  std::vector<std::string> names;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  if (ec) return CodeError("cannot list directory", path, ec);
  std::sort(names.begin(), names.end());
  return names;
}

Result<std::vector<std::string>> ListFilesRecursively(const std::string& root) {
  std::error_code ec;
  std::vector<std::string> files;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_directory(ec) || it->is_symlink(ec)) files.push_back(it->path().lexically_relative(root).string());
    if (ec) break;
  }
  if (ec) return CodeError("cannot list directory", root, ec);
  std::sort(files.begin(), files.end());
  return files;
}

Result<std::vector<std::string>> ListDirectoriesRecursively(const std::string& root) {
  std::error_code ec;
  std::vector<std::string> dirs = {root};
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    if (IsDirectory(it->path().string())) dirs.push_back(it->path().string());
  }
  if (ec) return CodeError("cannot list directory", root, ec);
  return dirs;
}

Status RemoveTree(const std::string& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
  if (ec) return CodeError("cannot remove", path, ec);
  return Status::OK();
}

void RemoveDirectoryIfEmpty(const std::string& path) { ::rmdir(path.c_str()); }

Status WriteEmptyFile(const std::string& path, bool sync) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError("cannot create", path, errno);
  const int rc = sync ? ::fsync(fd) : 0;
  const int err = errno;
  ::close(fd);
  if (rc != 0) return ErrnoError("cannot fsync", path, err);
  return Status::OK();
}

Result<JobLock> JobLock::Create(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError("cannot create lock file", path, errno);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd);
    return ErrnoError("cannot lock", path, err);
  }
  return JobLock(fd, path);
}

Result<JobLock> JobLock::TryAcquire(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Status::NotFound("lock file '" + path + "' vanished");
    return ErrnoError("cannot open lock file", path, errno);
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
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

}  // namespace recflow::dataset::internal
