// File system primitives of the commit protocol, over POSIX calls and std::filesystem without exceptions.
#include "recflow/dataset/commit_fs_internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace recflow::dataset::internal {

namespace fs = std::filesystem;

Status ErrnoError(const std::string& what, const std::string& path, int err) {
  return Status::IOError(what + " '" + path + "': " + std::strerror(err));
}

namespace {

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

Result<bool> IsMountPoint(const std::string& path) {
  struct statx stx;
  if (::statx(AT_FDCWD, path.c_str(), AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &stx) != 0) {
    return ErrnoError("cannot stat", path, errno);
  }
  if ((stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) != 0) return (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
  struct stat self, parent;
  const std::string parent_path = fs::path(path).parent_path().string();
  if (::lstat(path.c_str(), &self) != 0 || ::lstat(parent_path.c_str(), &parent) != 0) {
    return ErrnoError("cannot stat", path, errno);
  }
  return self.st_dev != parent.st_dev;
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

bool RenameFlagUnsupported(int err) { return err == EINVAL || err == ENOSYS; }

Status RenameError(const std::string& what, int err) {
  if (err == EXDEV) {
    return Status::IOError(what + ": they are on different file systems (a mount point in between): recflow " +
                           "commits by renaming a directory beside the output, which cannot cross file systems; " +
                           "write to a directory inside that file system");
  }
  return Status::IOError(what + ": " + std::strerror(err));
}

Status MoveNoReplace(const std::string& from, const std::string& to) {
  const std::string what = "cannot move '" + from + "' to '" + to + "'";
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return Status::OK();
  int err = errno;
  if (RenameFlagUnsupported(err)) {
    if (PathExists(to)) return Status::AlreadyExists(what + ": it exists");
    if (::rename(from.c_str(), to.c_str()) == 0) return Status::OK();
    err = errno;
  }
  if (err == EEXIST) return Status::AlreadyExists(what + ": it exists");
  return RenameError(what, err);
}

Result<bool> TryExchange(const std::string& a, const std::string& b) {
  if (::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0) return true;
  const int err = errno;
  if (RenameFlagUnsupported(err)) return false;
  return RenameError("cannot exchange '" + a + "' and '" + b + "'", err);
}

Status HardLink(const std::string& from, const std::string& to) {
  if (::linkat(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), 0) == 0) return Status::OK();
  const int err = errno;
  if (err == EEXIST) return Status::AlreadyExists("cannot link '" + from + "' as '" + to + "': it exists");
  return Status::IOError("cannot hard-link '" + from + "' as '" + to + "': " + std::strerror(err));
}

Status MakeDirectory(const std::string& path, unsigned mode) {
  if (::mkdir(path.c_str(), static_cast<mode_t>(mode)) == 0) return Status::OK();
  const int err = errno;
  if (err == EEXIST) return Status::AlreadyExists("cannot create directory '" + path + "': it exists");
  return ErrnoError("cannot create directory", path, err);
}

Result<std::vector<std::string>> CreateMissingDirectories(const std::string& path) {
  std::vector<std::string> missing;
  for (fs::path p = fs::path(path).lexically_normal(); !p.empty() && !PathExists(p.string()); p = p.parent_path()) {
    missing.push_back(p.string());
    if (p == p.parent_path()) break;
  }
  std::vector<std::string> created;
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    Status st = MakeDirectory(*it);
    if (st.code() == StatusCode::kAlreadyExists && IsDirectory(*it)) continue;  // made by someone else meanwhile
    RETURN_NOT_OK(st);
    created.insert(created.begin(), *it);
  }
  if (!IsDirectory(path)) return Status::IOError("cannot create directory '" + path + "': not a directory");
  return created;
}

Status CreateDirectoriesBelow(const std::string& root, std::string_view relative) {
  std::string path = root;
  size_t begin = 0;
  while (begin < relative.size()) {
    const size_t end = std::min(relative.find('/', begin), relative.size());
    path.append("/").append(relative.substr(begin, end - begin));
    if (!IsDirectory(path)) RETURN_NOT_OK(MakeDirectory(path));
    begin = end + 1;
  }
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

Status WriteSmallFile(const std::string& path, std::string_view content, bool sync) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) return ErrnoError("cannot create", path, errno);
  size_t done = 0;
  int err = 0;
  while (done < content.size() && err == 0) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno != EINTR) err = errno;
    if (n > 0) done += static_cast<size_t>(n);
  }
  if (err == 0 && sync && ::fsync(fd) != 0) err = errno;
  ::close(fd);
  if (err != 0) return ErrnoError("cannot write", path, err);
  return Status::OK();
}

}  // namespace recflow::dataset::internal
