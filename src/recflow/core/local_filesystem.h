// LocalFileSystem: the FileSystem of the machine's own files, over POSIX calls.
#pragma once

#include <memory>

#include "recflow/core/filesystem.h"

namespace recflow {

/// The local file system: read(2)/write(2) streams, mmap for big whole-file reads,
/// renameat2(2) for no-replace renames and exchanges, flock(2) locks. "-" opens standard
/// input (OpenInputStream) or standard output (OpenOutputStream). Stateless and thread-safe.
class LocalFileSystem final : public FileSystem {
 public:
  /// The process's one instance.
  static const std::shared_ptr<FileSystem>& Instance();

  std::string_view type_name() const override { return "local"; }
  FileSystemCapabilities capabilities() const override { return FileSystemCapabilities(); }
  Result<std::string> ResolvePath(const std::string& path) const override;
  Result<FileInfo> GetFileInfo(const std::string& path) override;
  /// stat(2): symlinks followed by the kernel (`/dev/fd/N` names the pipe itself).
  Result<FileInfo> GetTargetInfo(const std::string& path) override;
  /// statx(2)'s STATX_ATTR_MOUNT_ROOT, or a device different from the parent's where the
  /// kernel does not report that attribute.
  Result<bool> IsMountPoint(const std::string& path) override;
  Result<std::unique_ptr<InputStream>> OpenInputStream(const std::string& path) override;
  Result<std::shared_ptr<Buffer>> ReadWholeFile(const std::string& path) override;
  /// One open and one fstat per file (the size found from the open descriptor).
  Result<int64_t> AppendWholeFile(const std::string& path, BufferBuilder& out, int64_t max_bytes) override;
  /// Buffer::MapFile: a read-only map, whatever the size.
  Result<std::shared_ptr<Buffer>> MapFile(const std::string& path) override;
  Result<std::shared_ptr<Buffer>> ReadRange(const std::string& path, int64_t offset, int64_t length) override;
  Result<std::unique_ptr<OutputStream>> OpenOutputStream(const std::string& path,
                                                         const WriteOptions& options = {}) override;
  /// open(2) without O_APPEND, pwritev(2) at the given offsets.
  Result<std::unique_ptr<PositionalOutputFile>> OpenPositionalOutput(const std::string& path,
                                                                     const WriteOptions& options) override;
  Result<std::vector<std::string>> ListDirectory(const std::string& path) override;
  Status CreateDirectory(const std::string& path, std::optional<unsigned> permissions = std::nullopt) override;
  Status SetPermissions(const std::string& path, unsigned permissions) override;
  /// kNoReplace is renameat2(RENAME_NOREPLACE); where the file system or kernel lacks the flag,
  /// a check that `to` does not exist and rename(2) (callers hold the output lock).
  Status Move(const std::string& from, const std::string& to, MoveMode mode) override;
  /// renameat2(RENAME_EXCHANGE); false where the file system or kernel lacks it.
  Result<bool> TryExchange(const std::string& a, const std::string& b) override;
  Status HardLink(const std::string& from, const std::string& to) override;
  Status Remove(const std::string& path) override;
  /// fsync(2) of the path opened read-only (a file or a directory).
  Status Sync(const std::string& path) override;
  /// flock(2) of the opened file; released when the lock is destroyed or the process dies.
  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path, const LockOptions& options) override;
};

}  // namespace recflow
