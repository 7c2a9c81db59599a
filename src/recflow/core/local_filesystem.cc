// LocalFileSystem: lstat/statx, read(2)/pread(2)/mmap, pwritev(2), mkdir/chmod, renameat2, link, unlink/rmdir, fsync and flock.
#include "recflow/core/local_filesystem.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "recflow/core/gathered_write.h"
#include "recflow/core/local_filesystem_internal.h"

namespace recflow {

namespace internal {

bool RenameFlagUnsupported(int err) { return err == EINVAL || err == ENOSYS; }

Status RenameError(const std::string& what, int err) {
  if (err == EXDEV) {
    return Status::IOError(what + ": they are on different file systems (a mount point in between): recflow " +
                           "commits by renaming a directory beside the output, which cannot cross file systems; " +
                           "write to a directory inside that file system");
  }
  return Status::IOError(what + ": " + std::strerror(err));
}

}  // namespace internal

namespace {

namespace fs = std::filesystem;

/// "`what` '`path`': strerror(`err`)": NotFound for ENOENT, IOError otherwise.
Status ErrnoError(const std::string& what, const std::string& path, int err) {
  std::string text = what + " '" + path + "': " + std::strerror(err);
  if (err == ENOENT) return Status::NotFound(std::move(text));
  return Status::IOError(std::move(text));
}

/// A local file written with pwritev(2).
class LocalPositionalFile final : public PositionalOutputFile {
 public:
  LocalPositionalFile(int fd, std::string name, bool sync_on_close)
      : fd_(fd), sync_on_close_(sync_on_close), name_(std::move(name)) {}
  ~LocalPositionalFile() override { (void)Close(); }  // errors reach callers through Close()
  LocalPositionalFile(const LocalPositionalFile&) = delete;
  LocalPositionalFile& operator=(const LocalPositionalFile&) = delete;

  Status WriteGatheredAt(int64_t offset, std::span<const std::string_view> pieces) override {
    if (fd_ < 0) return Status::IOError(name_ + ": write after close");
    IovecCursor cursor;
    cursor.AddAll(pieces);
    return PwritevAll(fd_, name_, offset, cursor);
  }
  Status Close() override {
    if (fd_ < 0) return Status::OK();
    return FinishWrites(std::exchange(fd_, -1), name_, sync_on_close_, /*close_fd=*/true);
  }
  const std::string& name() const override { return name_; }

 private:
  int fd_;
  bool sync_on_close_;
  std::string name_;
};

/// flock(2), retried when a signal interrupts it.
int Flock(int fd, int operation) {
  int rc;
  do {
    rc = ::flock(fd, operation);
  } while (rc != 0 && errno == EINTR);
  return rc;
}

/// A flock(2) held on an open descriptor.
class LocalFileLock final : public FileLock {
 public:
  LocalFileLock(int fd, std::string path) : FileLock(std::move(path)), fd_(fd) {}
  ~LocalFileLock() override {
    if (fd_ >= 0) ::close(fd_);
  }
  bool NamesLockedFile() const override {
    struct stat locked, named;
    return fd_ >= 0 && ::fstat(fd_, &locked) == 0 && ::stat(path().c_str(), &named) == 0 &&
           locked.st_dev == named.st_dev && locked.st_ino == named.st_ino;
  }
  Status UnlinkAndRelease() override {
    if (fd_ < 0) return Status::OK();
    const int rc = ::unlink(path().c_str());
    const int err = errno;
    ::close(std::exchange(fd_, -1));
    if (rc != 0 && err != ENOENT) return ErrnoError("cannot remove lock file", path(), err);
    return Status::OK();
  }

 private:
  int fd_;
};

}  // namespace

const std::shared_ptr<FileSystem>& LocalFileSystem::Instance() {
  static const auto* instance = new std::shared_ptr<FileSystem>(std::make_shared<LocalFileSystem>());
  return *instance;
}

Result<std::string> LocalFileSystem::ResolvePath(const std::string& path) const {
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  fs::path resolved = ec ? fs::path() : fs::weakly_canonical(absolute, ec);
  if (ec) return Status::IOError("cannot resolve '" + path + "': " + ec.message());
  std::string out = resolved.string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

namespace {

/// The FileInfo of `st`.
FileInfo InfoOf(const struct stat& st) {
  FileInfo info;
  info.permissions = st.st_mode & 07777;
  if (S_ISREG(st.st_mode)) {
    info.type = FileType::kFile;
    info.size = st.st_size;
  } else if (S_ISDIR(st.st_mode)) {
    info.type = FileType::kDirectory;
  } else if (S_ISLNK(st.st_mode)) {
    info.type = FileType::kSymlink;
  } else {
    info.type = FileType::kOther;
  }
  return info;
}

/// lstat(2) or stat(2) of `path`; type kNotFound when nothing is there.
Result<FileInfo> Stat(const std::string& path, bool follow) {
  struct stat st;
  if ((follow ? ::stat(path.c_str(), &st) : ::lstat(path.c_str(), &st)) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return FileInfo();
    return ErrnoError("cannot stat", path, errno);
  }
  return InfoOf(st);
}

}  // namespace

Result<FileInfo> LocalFileSystem::GetFileInfo(const std::string& path) { return Stat(path, /*follow=*/false); }

Result<FileInfo> LocalFileSystem::GetTargetInfo(const std::string& path) { return Stat(path, /*follow=*/true); }

Result<bool> LocalFileSystem::IsMountPoint(const std::string& path) {
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

Result<std::unique_ptr<InputStream>> LocalFileSystem::OpenInputStream(const std::string& path) {
  ASSIGN_OR_RETURN(std::unique_ptr<FileInputStream> in, FileInputStream::Open(path));
  return std::unique_ptr<InputStream>(std::move(in));
}

Result<std::shared_ptr<Buffer>> LocalFileSystem::ReadWholeFile(const std::string& path) {
  return recflow::ReadWholeFile(path);
}

Result<std::shared_ptr<Buffer>> LocalFileSystem::MapFile(const std::string& path) { return Buffer::MapFile(path); }

Result<int64_t> LocalFileSystem::AppendWholeFile(const std::string& path, BufferBuilder& out, int64_t max_bytes) {
  return recflow::AppendWholeFile(path, out, max_bytes);
}

Result<std::shared_ptr<Buffer>> LocalFileSystem::ReadRange(const std::string& path, int64_t offset, int64_t length) {
  if (offset < 0 || length < 0) return Status::InvalidArgument(path + ": negative range");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoError("cannot open", path, errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return ErrnoError("cannot stat", path, err);
  }
  const int64_t available = S_ISREG(st.st_mode) ? std::max<int64_t>(0, st.st_size - offset) : length;
  std::string bytes(static_cast<size_t>(std::min(length, available)), '\0');
  size_t done = 0;
  Status status;
  while (status.ok() && done < bytes.size()) {
    const ssize_t r = ::pread(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset) + done);
    if (r == 0) break;
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) status = ErrnoError("cannot read", path, errno).WithOffset(offset + static_cast<int64_t>(done));
    if (r > 0) done += static_cast<size_t>(r);
  }
  ::close(fd);
  RETURN_NOT_OK(status);
  bytes.resize(done);
  return Buffer::FromString(std::move(bytes));
}

Result<std::unique_ptr<OutputStream>> LocalFileSystem::OpenOutputStream(const std::string& path,
                                                                        const WriteOptions& options) {
  ASSIGN_OR_RETURN(std::unique_ptr<FileOutputStream> out, FileOutputStream::Open(path, options.append));
  out->set_sync_on_close(options.sync_on_close);
  return std::unique_ptr<OutputStream>(std::move(out));
}

Result<std::unique_ptr<PositionalOutputFile>> LocalFileSystem::OpenPositionalOutput(const std::string& path,
                                                                                    const WriteOptions& options) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (options.append ? 0 : O_TRUNC), 0666);
  if (fd < 0) return ErrnoError("cannot create", path, errno);
  return std::unique_ptr<PositionalOutputFile>(std::make_unique<LocalPositionalFile>(fd, path, options.sync_on_close));
}

Result<std::vector<std::string>> LocalFileSystem::ListDirectory(const std::string& path) {
  std::error_code ec;
  std::vector<std::string> names;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  if (ec) return Status::IOError("cannot list directory '" + path + "': " + ec.message());
  std::sort(names.begin(), names.end());
  return names;
}

Status LocalFileSystem::CreateDirectory(const std::string& path, std::optional<unsigned> permissions) {
  if (::mkdir(path.c_str(), static_cast<mode_t>(permissions.value_or(0777))) != 0) {
    const int err = errno;
    if (err == EEXIST) return Status::AlreadyExists("cannot create directory '" + path + "': it exists");
    return ErrnoError("cannot create directory", path, err);
  }
  if (permissions) return SetPermissions(path, *permissions);  // mkdir applied the umask
  return Status::OK();
}

Status LocalFileSystem::SetPermissions(const std::string& path, unsigned permissions) {
  if (::chmod(path.c_str(), static_cast<mode_t>(permissions)) != 0) return ErrnoError("cannot chmod", path, errno);
  return Status::OK();
}

Status LocalFileSystem::Move(const std::string& from, const std::string& to, MoveMode mode) {
  const std::string what = "cannot move '" + from + "' to '" + to + "'";
  if (mode == MoveMode::kReplace) {
    if (::rename(from.c_str(), to.c_str()) == 0) return Status::OK();
    return internal::RenameError(what, errno);
  }
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return Status::OK();
  int err = errno;
  if (internal::RenameFlagUnsupported(err)) {
    struct stat st;
    if (::lstat(to.c_str(), &st) == 0) return Status::AlreadyExists(what + ": it exists");
    if (::rename(from.c_str(), to.c_str()) == 0) return Status::OK();
    err = errno;
  }
  if (err == EEXIST) return Status::AlreadyExists(what + ": it exists");
  return internal::RenameError(what, err);
}

Result<bool> LocalFileSystem::TryExchange(const std::string& a, const std::string& b) {
  if (::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0) return true;
  const int err = errno;
  if (internal::RenameFlagUnsupported(err)) return false;
  return internal::RenameError("cannot exchange '" + a + "' and '" + b + "'", err);
}

Status LocalFileSystem::HardLink(const std::string& from, const std::string& to) {
  if (::linkat(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), 0) == 0) return Status::OK();
  const int err = errno;
  if (err == EEXIST) return Status::AlreadyExists("cannot link '" + from + "' as '" + to + "': it exists");
  return Status::IOError("cannot hard-link '" + from + "' as '" + to + "': " + std::strerror(err));
}

Status LocalFileSystem::Remove(const std::string& path) {
  if (::unlink(path.c_str()) == 0) return Status::OK();
  int err = errno;
  if (err == EISDIR || err == EPERM) {
    if (::rmdir(path.c_str()) == 0) return Status::OK();
    err = errno;
  }
  return ErrnoError("cannot remove", path, err);
}

Status LocalFileSystem::Sync(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoError("cannot open for fsync", path, errno);
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return ErrnoError("cannot fsync", path, err);
  return Status::OK();
}

Result<std::unique_ptr<FileLock>> LocalFileSystem::LockFile(const std::string& path, const LockOptions& options) {
  int flags = O_RDWR | O_CLOEXEC;
  if (options.creation == LockOptions::Creation::kCreate) flags |= O_CREAT;
  if (options.creation == LockOptions::Creation::kCreateNew) flags |= O_CREAT | O_EXCL;
  const int fd = ::open(path.c_str(), flags, 0666);
  if (fd < 0) {
    const int err = errno;
    if (err == EEXIST) return Status::AlreadyExists("cannot create lock file '" + path + "': it exists");
    return ErrnoError("cannot open lock file", path, err);
  }
  if (options.before_lock) options.before_lock();
  if (Flock(fd, LOCK_EX | (options.wait ? 0 : LOCK_NB)) != 0) {
    const int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK) return std::unique_ptr<FileLock>();
    return ErrnoError("cannot lock", path, err);
  }
  return std::unique_ptr<FileLock>(std::make_unique<LocalFileLock>(fd, path));
}

}  // namespace recflow
