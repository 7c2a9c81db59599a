// ForwardingFileSystem: a FileSystem that hands every verb to another, the base
// of a wrapper that changes a few verbs.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "recflow/core/filesystem.h"

namespace recflow {

/// A FileSystem whose every verb is `base`'s: a wrapper that changes some verbs
/// derives from it and overrides only those (as python::KeptMappings does
/// MapFile), and a verb added to FileSystem later reaches `base` through it
/// unchanged. A wrapper that must see every call (FaultInjectingFileSystem,
/// which counts and fails each) derives from FileSystem itself, so that a new
/// verb does not compile until it handles it. Thread-safe when `base` is.
class ForwardingFileSystem : public FileSystem {
 public:
  /// Over `base`.
  explicit ForwardingFileSystem(std::shared_ptr<FileSystem> base) : base_(std::move(base)) {}

  std::string_view type_name() const override { return base_->type_name(); }
  FileSystemCapabilities capabilities() const override { return base_->capabilities(); }
  Result<std::string> ResolvePath(const std::string &path) const override { return base_->ResolvePath(path); }
  Result<FileInfo> GetFileInfo(const std::string &path) override { return base_->GetFileInfo(path); }
  Result<FileInfo> GetTargetInfo(const std::string &path) override { return base_->GetTargetInfo(path); }
  Result<bool> IsMountPoint(const std::string &path) override { return base_->IsMountPoint(path); }
  Result<std::unique_ptr<InputStream>> OpenInputStream(const std::string &path) override {
    return base_->OpenInputStream(path);
  }
  Result<std::shared_ptr<Buffer>> ReadWholeFile(const std::string &path) override { return base_->ReadWholeFile(path); }
  Result<int64_t> AppendWholeFile(const std::string &path, BufferBuilder &out, int64_t max_bytes) override {
    return base_->AppendWholeFile(path, out, max_bytes);
  }
  Result<std::shared_ptr<Buffer>> MapFile(const std::string &path) override { return base_->MapFile(path); }
  Result<std::shared_ptr<Buffer>> ReadRange(const std::string &path, int64_t offset, int64_t length) override {
    return base_->ReadRange(path, offset, length);
  }
  Result<std::unique_ptr<OutputStream>> OpenOutputStream(const std::string &path,
                                                         const WriteOptions &options = {}) override {
    return base_->OpenOutputStream(path, options);
  }
  Result<std::unique_ptr<PositionalOutputFile>> OpenPositionalOutput(const std::string &path,
                                                                     const WriteOptions &options) override {
    return base_->OpenPositionalOutput(path, options);
  }
  Result<std::vector<std::string>> ListDirectory(const std::string &path) override {
    return base_->ListDirectory(path);
  }
  Status CreateDirectory(const std::string &path, std::optional<unsigned> permissions = std::nullopt) override {
    return base_->CreateDirectory(path, permissions);
  }
  Status SetPermissions(const std::string &path, unsigned permissions) override {
    return base_->SetPermissions(path, permissions);
  }
  Status Move(const std::string &from, const std::string &to, MoveMode mode) override {
    return base_->Move(from, to, mode);
  }
  Result<bool> TryExchange(const std::string &a, const std::string &b) override { return base_->TryExchange(a, b); }
  Status HardLink(const std::string &from, const std::string &to) override { return base_->HardLink(from, to); }
  Status Remove(const std::string &path) override { return base_->Remove(path); }
  Status Sync(const std::string &path) override { return base_->Sync(path); }
  Result<std::unique_ptr<FileLock>> LockFile(const std::string &path, const LockOptions &options) override {
    return base_->LockFile(path, options);
  }

 protected:
  /// The file system every verb goes to.
  FileSystem &base() const { return *base_; }

 private:
  std::shared_ptr<FileSystem> base_;
};

}  // namespace recflow
