// KeptMappings: a local FileSystem whose MapFile hands out again the mapping it made of a file that has not changed,
// so that a dataset read every epoch is mapped (and its pages faulted in and unmapped) once, not once per epoch.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <ctime>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "recflow/core/filesystem.h"

namespace recflow::python {

/// The FileSystem of a recflow.read dataset: every verb is `base`'s (the local file system: paths
/// are the kernel's), but MapFile keeps each mapping and returns it again while the file at that
/// path is the same one, unchanged — device, inode, size and modification time as when it was
/// mapped — and maps it anew otherwise. A training loop's every epoch then reads the pages the
/// first one mapped: the kernel's work of faulting a file's pages into a fresh mapping and
/// unmapping them after, about 12 % of the CPU of a Fashion-MNIST epoch into torch, is done once. At
/// most kMaxKept files and kMaxKeptBytes of them are kept (all are let go when one more would pass
/// either bound, and a file larger than kMaxKeptBytes is not kept: a bigger dataset is mapped per
/// read as before, and the pages a process keeps mapped, which count in its resident size, stay
/// bounded). A file rewritten in place with its size and time unchanged to the nanosecond is read
/// as it was mapped. Thread-safe.
class KeptMappings final : public FileSystem {
 public:
  /// Files whose mappings are kept at most.
  static constexpr size_t kMaxKept = 1024;
  /// Bytes of the files whose mappings are kept at most.
  static constexpr int64_t kMaxKeptBytes = int64_t{2} << 30;

  /// Over `base`, the local file system.
  explicit KeptMappings(std::shared_ptr<FileSystem> base) : base_(std::move(base)) {}

  /// The mapping of `path` made before, when the file is unchanged since; else `base`'s new one
  /// (kept).
  Result<std::shared_ptr<Buffer>> MapFile(const std::string& path) override;

  /// The files whose mappings are kept now.
  size_t kept() const;

  std::string_view type_name() const override { return base_->type_name(); }
  FileSystemCapabilities capabilities() const override { return base_->capabilities(); }
  Result<std::string> ResolvePath(const std::string& path) const override { return base_->ResolvePath(path); }
  Result<FileInfo> GetFileInfo(const std::string& path) override { return base_->GetFileInfo(path); }
  Result<FileInfo> GetTargetInfo(const std::string& path) override { return base_->GetTargetInfo(path); }
  Result<bool> IsMountPoint(const std::string& path) override { return base_->IsMountPoint(path); }
  Result<std::unique_ptr<InputStream>> OpenInputStream(const std::string& path) override {
    return base_->OpenInputStream(path);
  }
  Result<std::shared_ptr<Buffer>> ReadWholeFile(const std::string& path) override {
    return base_->ReadWholeFile(path);
  }
  Result<int64_t> AppendWholeFile(const std::string& path, BufferBuilder& out, int64_t max_bytes) override {
    return base_->AppendWholeFile(path, out, max_bytes);
  }
  Result<std::shared_ptr<Buffer>> ReadRange(const std::string& path, int64_t offset, int64_t length) override {
    return base_->ReadRange(path, offset, length);
  }
  Result<std::unique_ptr<OutputStream>> OpenOutputStream(const std::string& path,
                                                         const WriteOptions& options = {}) override {
    return base_->OpenOutputStream(path, options);
  }
  Result<std::unique_ptr<PositionalOutputFile>> OpenPositionalOutput(const std::string& path,
                                                                     const WriteOptions& options) override {
    return base_->OpenPositionalOutput(path, options);
  }
  Result<std::vector<std::string>> ListDirectory(const std::string& path) override {
    return base_->ListDirectory(path);
  }
  Status CreateDirectory(const std::string& path, std::optional<unsigned> permissions = std::nullopt) override {
    return base_->CreateDirectory(path, permissions);
  }
  Status SetPermissions(const std::string& path, unsigned permissions) override {
    return base_->SetPermissions(path, permissions);
  }
  Status Move(const std::string& from, const std::string& to, MoveMode mode) override {
    return base_->Move(from, to, mode);
  }
  Result<bool> TryExchange(const std::string& a, const std::string& b) override { return base_->TryExchange(a, b); }
  Status HardLink(const std::string& from, const std::string& to) override { return base_->HardLink(from, to); }
  Status Remove(const std::string& path) override { return base_->Remove(path); }
  Status Sync(const std::string& path) override { return base_->Sync(path); }
  Result<std::unique_ptr<FileLock>> LockFile(const std::string& path, const LockOptions& options) override {
    return base_->LockFile(path, options);
  }

 private:
  /// What tells one state of a file from another.
  struct Identity {
    dev_t device = 0;
    ino_t inode = 0;
    off_t size = 0;
    timespec modified{};

    bool operator==(const Identity& other) const {
      return device == other.device && inode == other.inode && size == other.size &&
             modified.tv_sec == other.modified.tv_sec && modified.tv_nsec == other.modified.tv_nsec;
    }
  };
  struct Kept {
    Identity identity;
    std::shared_ptr<Buffer> mapping;
  };

  std::shared_ptr<FileSystem> base_;
  mutable std::mutex mutex_;
  std::map<std::string, Kept> kept_;
  int64_t kept_bytes_ = 0;  ///< the sizes of the kept mappings
};

}  // namespace recflow::python
