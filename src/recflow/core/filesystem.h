// FileSystem: the verbs readers, sinks and the commit protocol use on files, behind one interface.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/buffer.h"
#include "recflow/core/io.h"
#include "recflow/core/result.h"

namespace recflow {

/// What a path names. Symlinks are reported as such (never followed by GetFileInfo).
enum class FileType { kNotFound, kFile, kDirectory, kSymlink, kOther };

/// What GetFileInfo knows of a path.
struct FileInfo {
  FileType type = FileType::kNotFound;
  /// Bytes of a file, -1 for anything else.
  int64_t size = -1;
  /// Permission bits (07777).
  unsigned permissions = 0;

  bool exists() const { return type != FileType::kNotFound; }
  bool is_directory() const { return type == FileType::kDirectory; }
};

/// What a file system can do beyond reading and writing whole objects. An object store has
/// none of these; the commit protocol checks them and refuses what it cannot do safely.
struct FileSystemCapabilities {
  /// Move() is atomic, and with MoveMode::kNoReplace never replaces an existing path.
  bool atomic_rename = true;
  /// Directories exist on their own (created, listed, renamed as a whole with what they hold).
  bool directories = true;
  /// LockFile() gives exclusive locks that other processes see.
  bool locks = true;
  /// HardLink() works (a second name of a file, no copy).
  bool hard_links = true;
  /// TryExchange() may swap two paths atomically (it can still answer false for some paths).
  bool exchange = true;
  /// OpenPositionalOutput() works: a file can be written at chosen offsets by several threads.
  bool positional_writes = true;
};

/// How Move() treats an existing destination.
enum class MoveMode {
  kNoReplace,  ///< AlreadyExists when `to` exists; atomically so
  kReplace,    ///< an existing file `to` is replaced atomically (rename(2))
};

/// How OpenOutputStream opens a file.
struct WriteOptions {
  /// Append to an existing file instead of truncating it.
  bool append = false;
  /// Close() makes the bytes durable (fsync) before it returns.
  bool sync_on_close = false;
};

/// How LockFile() finds its file and waits.
struct LockOptions {
  /// Which file is locked.
  enum class Creation {
    kExisting,   ///< an existing file; NotFound when missing
    kCreate,     ///< the file, created when missing
    kCreateNew,  ///< a new file; AlreadyExists when the path exists
  };
  Creation creation = Creation::kCreate;
  /// Wait while another holder has the lock; otherwise LockFile returns null at once.
  bool wait = true;
  /// Test hook, may be empty: called after the file is opened or created and before it is locked.
  std::function<void()> before_lock;
};

/// An exclusive lock on a file, released on destruction (or, like a flock, when the process dies).
class FileLock {
 public:
  virtual ~FileLock() = default;
  /// The path given to LockFile.
  const std::string& path() const { return path_; }
  /// True while `path()` still names the file locked (another holder may have unlinked it).
  virtual bool NamesLockedFile() const = 0;
  /// Unlinks `path()` (when it still names the locked file) while the lock is held, then releases it.
  virtual Status UnlinkAndRelease() = 0;

 protected:
  explicit FileLock(std::string path) : path_(std::move(path)) {}

 private:
  std::string path_;
};

/// Files and directories behind paths. Implementations: LocalFileSystem (POSIX), MemoryFileSystem
/// (tests), FaultInjectingFileSystem (wraps another to fail chosen calls), ForwardingFileSystem (the base
/// of wrappers that change a few verbs); object stores later.
/// Paths are `/`-separated. Every error names the path. Each verb is one virtual call per file,
/// never per record. Implementations are thread-safe.
class FileSystem {
 public:
  virtual ~FileSystem() = default;

  /// A short name for messages ("local", "memory", ...).
  virtual std::string_view type_name() const = 0;
  /// What this file system can do beyond reading and writing files.
  virtual FileSystemCapabilities capabilities() const = 0;

  /// `path` absolute and normalised, symlinks resolved as far as the path exists.
  virtual Result<std::string> ResolvePath(const std::string& path) const = 0;
  /// What `path` names (a final symlink is not followed); type kNotFound when nothing.
  virtual Result<FileInfo> GetFileInfo(const std::string& path) = 0;
  /// What `path` names, a final symlink followed; by default through ResolvePath.
  virtual Result<FileInfo> GetTargetInfo(const std::string& path);
  /// True when directory `path` is the root of a mounted file system (it cannot be renamed).
  virtual Result<bool> IsMountPoint(const std::string& path) = 0;

  /// A stream reading file `path` from its start.
  virtual Result<std::unique_ptr<InputStream>> OpenInputStream(const std::string& path) = 0;
  /// The whole content of file `path` (memory-mapped where that is cheaper than reading).
  virtual Result<std::shared_ptr<Buffer>> ReadWholeFile(const std::string& path) = 0;
  /// Appends the whole content of file `path` to `out` (read, never mapped: many small files,
  /// such as images, read straight into one column) and returns the number of bytes appended.
  /// A file over `max_bytes` is an error; on error nothing is appended. By default through
  /// OpenInputStream.
  virtual Result<int64_t> AppendWholeFile(const std::string& path, BufferBuilder& out, int64_t max_bytes);
  /// The whole content of file `path` without copying it where this file system can (mmap);
  /// others read it whole.
  virtual Result<std::shared_ptr<Buffer>> MapFile(const std::string& path) = 0;
  /// Up to `length` bytes of file `path` from byte `offset` (fewer at its end).
  virtual Result<std::shared_ptr<Buffer>> ReadRange(const std::string& path, int64_t offset, int64_t length) = 0;
  /// A stream writing file `path` (created, truncated or appended to per `options`).
  virtual Result<std::unique_ptr<OutputStream>> OpenOutputStream(const std::string& path,
                                                                 const WriteOptions& options = {}) = 0;

  /// A file `path` written at chosen offsets (created, truncated or, with `options.append`, kept
  /// as it is), where capabilities().positional_writes; an error naming the path elsewhere.
  virtual Result<std::unique_ptr<PositionalOutputFile>> OpenPositionalOutput(const std::string& path,
                                                                             const WriteOptions& options) = 0;
  /// Names in directory `path` (not `.`/`..`), sorted.
  virtual Result<std::vector<std::string>> ListDirectory(const std::string& path) = 0;
  /// Creates one directory (never its parents); AlreadyExists when `path` exists. With
  /// `permissions`, the directory gets exactly those bits (no umask).
  virtual Status CreateDirectory(const std::string& path, std::optional<unsigned> permissions = std::nullopt) = 0;
  /// Sets the permission bits of `path`.
  virtual Status SetPermissions(const std::string& path, unsigned permissions) = 0;
  /// Renames `from` to `to` (see MoveMode).
  virtual Status Move(const std::string& from, const std::string& to, MoveMode mode) = 0;
  /// Swaps two existing paths atomically; false (nothing moved) where this file system cannot
  /// for these paths.
  virtual Result<bool> TryExchange(const std::string& a, const std::string& b) = 0;
  /// A new name `to` of file `from` (a symlink `from` is linked itself); AlreadyExists when `to` exists.
  virtual Status HardLink(const std::string& from, const std::string& to) = 0;
  /// Removes a file, a symlink or an empty directory; NotFound when nothing is there.
  virtual Status Remove(const std::string& path) = 0;
  /// Makes `path` (a file, or a directory's entries) durable.
  virtual Status Sync(const std::string& path) = 0;
  /// An exclusive lock on file `path` (see LockOptions); null when `options.wait` is false and
  /// another holder has it.
  virtual Result<std::unique_ptr<FileLock>> LockFile(const std::string& path, const LockOptions& options) = 0;

  // Built on the verbs above, the same for every file system.


  /// True when `path` names anything.
  Result<bool> Exists(const std::string& path);
  /// True when `path` is a directory.
  Result<bool> IsDirectory(const std::string& path);
  /// rm -rf; success when `path` does not exist.
  Status RemoveTree(const std::string& path);
  /// Removes `path` when it is an empty directory; does nothing otherwise (best-effort tidying).
  void RemoveDirectoryIfEmpty(const std::string& path);
  /// mkdir -p of `path`; returns the directories it created, deepest first. An existing
  /// non-directory on the way is an IOError naming it.
  Result<std::vector<std::string>> CreateDirectories(const std::string& path);
  /// Creates the directories of `relative` (`/`-separated) under existing `root`, one at a time:
  /// if `root` was removed, nothing is recreated.
  Status CreateDirectoriesBelow(const std::string& root, std::string_view relative);
  /// Paths of every non-directory under `root`, relative to it, sorted.
  Result<std::vector<std::string>> ListFilesRecursively(const std::string& root);
  /// Paths of every directory under `root` (root first), absolute, parents before children.
  Result<std::vector<std::string>> ListDirectoriesRecursively(const std::string& root);
  /// Creates (or truncates) `path` holding `content`, made durable when `sync`.
  Status WriteSmallFile(const std::string& path, std::string_view content, bool sync);
};

/// The parent of `path` ("" when it has none; "/" for a child of the root).
std::string ParentPath(const std::string& path);

/// A stream reading input `path` of a reader: "-" is standard input, on the machine whatever
/// `fs` is (FileInputStream::Open, which also returns what PeekInput kept of it); anything else
/// is fs.OpenInputStream. Errors name the path.
Result<std::unique_ptr<InputStream>> OpenInputFile(FileSystem& fs, const std::string& path);

}  // namespace recflow
