// MemoryFileSystem: a FileSystem held in memory, for tests of readers, sinks and commits.
#pragma once

#include <memory>

#include "recflow/core/filesystem.h"

namespace recflow {

/// Files and directories in memory under the root "/" (relative paths are taken from the root;
/// `.` and `..` are resolved lexically; there are no symlinks). Hard links share one file;
/// locks are held by FileLock objects (destroying one is what a process's death does to a
/// flock). Every verb is atomic with respect to the others. Thread-safe.
class MemoryFileSystem final : public FileSystem {
 public:
  MemoryFileSystem();
  ~MemoryFileSystem() override;

  std::string_view type_name() const override { return "memory"; }
  FileSystemCapabilities capabilities() const override { return FileSystemCapabilities(); }
  Result<std::string> ResolvePath(const std::string& path) const override;
  Result<FileInfo> GetFileInfo(const std::string& path) override;
  /// False for every existing directory: nothing is mounted here.
  Result<bool> IsMountPoint(const std::string& path) override;
  /// A stream over a copy of the file's content as it is now.
  Result<std::unique_ptr<InputStream>> OpenInputStream(const std::string& path) override;
  Result<std::shared_ptr<Buffer>> ReadWholeFile(const std::string& path) override;
  /// ReadWholeFile: a copy, since the file may change while the buffer lives.
  Result<std::shared_ptr<Buffer>> MapFile(const std::string& path) override;
  Result<std::shared_ptr<Buffer>> ReadRange(const std::string& path, int64_t offset, int64_t length) override;
  /// Each Write is visible at once (there is no page cache to lose).
  Result<std::unique_ptr<OutputStream>> OpenOutputStream(const std::string& path,
                                                         const WriteOptions& options = {}) override;
  /// Each write is visible at once; a range not written yet reads as zeros.
  Result<std::unique_ptr<PositionalOutputFile>> OpenPositionalOutput(const std::string& path,
                                                                     const WriteOptions& options) override;
  Result<std::vector<std::string>> ListDirectory(const std::string& path) override;
  Status CreateDirectory(const std::string& path, std::optional<unsigned> permissions = std::nullopt) override;
  Status SetPermissions(const std::string& path, unsigned permissions) override;
  Status Move(const std::string& from, const std::string& to, MoveMode mode) override;
  Result<bool> TryExchange(const std::string& a, const std::string& b) override;
  Status HardLink(const std::string& from, const std::string& to) override;
  Status Remove(const std::string& path) override;
  /// Checks that `path` exists; everything here is as durable as it gets.
  Status Sync(const std::string& path) override;
  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path, const LockOptions& options) override;

  /// The tree and its mutex, shared with the streams and locks it hands out (defined in the .cc).
  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace recflow
