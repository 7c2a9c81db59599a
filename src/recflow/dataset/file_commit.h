// FileCommit: one file written under a staged name beside its final path, then renamed over it as a committed unit.
#pragma once

#include <memory>
#include <string>

#include "recflow/core/filesystem.h"
#include "recflow/core/result.h"
#include "recflow/dataset/staging_registry.h"

namespace recflow::dataset {

/// The commit of one file (a pipeline's vocabulary file, next to its datasets): the writer
/// writes `staged`, beside `target` on the same file system; Commit() makes it durable and
/// renames it over `target` in one atomic rename, so `target` is the old file or the new one,
/// never a part. Until then (and when the job fails, is aborted or is terminated: the staged
/// file is registered with the termination handler) `target` stays as it was. Not thread-safe.
class FileCommit {
 public:
  /// Starts the commit of `staged` to `target` on `fs`; InvalidArgument when `fs` cannot rename
  /// atomically. With `sync`, Commit() fsyncs the file and then the directory.
  static Result<std::unique_ptr<FileCommit>> Begin(std::shared_ptr<FileSystem> fs, std::string staged,
                                                   std::string target, bool sync = true);
  /// Aborts unless committed or aborted.
  ~FileCommit();
  FileCommit(const FileCommit&) = delete;
  FileCommit& operator=(const FileCommit&) = delete;

  /// Renames the staged file over the target (see the class comment). IOError naming both when
  /// the staged file is missing or the rename fails; the target is then unchanged and the
  /// staged file removed.
  Status Commit();
  /// Removes the staged file (unless committed); the target stays as it was.
  Status Abort();

  /// Where the writer writes.
  const std::string& staged() const { return staged_; }
  /// The committed file.
  const std::string& target() const { return target_; }

 private:
  FileCommit(std::shared_ptr<FileSystem> fs, std::string staged, std::string target, bool sync);
  std::shared_ptr<FileSystem> fs_;
  std::string staged_;
  std::string target_;
  bool sync_;
  StagingRegistration registration_;
  bool finished_ = false;
};

}  // namespace recflow::dataset
