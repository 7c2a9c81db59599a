// RunFiles: the files a run commits besides its datasets (side files, one raster per row), staged during the run and committed or removed with it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "recflow/core/filesystem.h"
#include "recflow/core/stop_token.h"
#include "recflow/dataset/file_commit.h"
#include "recflow/dataset/staging_registry.h"

namespace recflow::pipeline {

/// Where a step writes the file `path` until the run commits it (see RunFiles::Stage).
inline std::string StagedPath(const std::string& path) { return path + ".recflow-staged"; }

/// The files one run writes outside its datasets: each is written under StagedPath(target) on
/// the run's file system (a dataset::FileCommit, registered for removal on SIGINT/SIGTERM) and
/// renamed over its target only when the whole run commits, after its datasets — or, for a
/// stage that commits per epoch (its own RunFiles), when each epoch commits; a failed or
/// cancelled run removes those not committed yet, so their targets stay as they were. Steps
/// reach it through ProcessContext::run_files (with the run's stop token) while their rows run.
/// Thread-safe.
class RunFiles {
 public:
  RunFiles(std::shared_ptr<FileSystem> file_system, StopToken stop_token)
      : file_system_(std::move(file_system)), stop_token_(std::move(stop_token)) {}

  /// The run's file system (ExecContext::file_system).
  FileSystem& file_system() const { return *file_system_; }
  /// The run's stop token: a step doing long work for one row checks it between its pieces.
  const StopToken& stop_token() const { return stop_token_; }
  /// The run's generation (docs/streaming.md, "Generations": 0 but for a checkpointed run started
  /// on a drained checkpoint), which names of files written per row may carry (text_template's
  /// `{@generation}`) so that generations never write each other's files. Set before any row runs.
  int64_t generation() const { return generation_; }
  void set_generation(int64_t generation) { generation_ = generation; }

  /// Declares `target` an output of the run and returns where to write it (StagedPath(target)).
  /// AlreadyExists when `target` was declared since the last Commit (two rows or steps writing
  /// one file in one run, or one epoch: a later epoch's file replaces an earlier epoch's);
  /// InvalidArgument when the file system cannot rename atomically.
  Result<std::string> Stage(const std::string& target);
  /// Registers `path`, a scratch file a step writes on the way to `target` (a COG's uncompressed
  /// intermediate), with the termination handler until the registration is dropped: a process
  /// terminated meanwhile removes it with the staged files. The step removes it itself otherwise.
  std::unique_ptr<dataset::StagingRegistration> RegisterScratch(const std::string& target, const std::string& path);
  /// Removes the staged file of `target` and forgets it (its row failed and was skipped).
  Status Discard(const std::string& target);
  /// Renames every staged file over its target, in the order of the targets, and forgets it (the
  /// next epoch stages anew); the first error, the files after it still staged.
  Status Commit();
  /// Removes every staged file not committed; the targets whose staged files it removed.
  std::vector<std::string> Abort();
  /// From now on Stage refuses every target, InvalidArgument naming it and saying `why` (a
  /// checkpointed run: its checkpoints cover rows whose files would commit only at its end).
  void RefuseStaging(std::string why);

 private:
  std::shared_ptr<FileSystem> file_system_;
  StopToken stop_token_;
  int64_t generation_ = 0;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<dataset::FileCommit>> files_;  // by target
  std::string refused_;  // why Stage refuses (empty: it does not)
};

}  // namespace recflow::pipeline
