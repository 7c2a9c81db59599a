// ReadInput: what a Read node reads — the source opened when the pipeline was built, kept for the first pass.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "recflow/core/filesystem.h"
#include "recflow/core/result.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/formats/source.h"

namespace recflow::pipeline {

/// Opens a fresh reader of a Read's input on `file_system` (the run's, ExecContext::file_system;
/// the pipeline's when it is built), for a pass after the first.
using SourceFactory = std::function<Result<std::unique_ptr<Source>>(const std::shared_ptr<FileSystem>& file_system)>;

/// A factory opening `paths` as dataset::OpenInputs does with `options`, on the file system it is
/// given (which replaces options.settings.file_system).
SourceFactory InputsFactory(std::vector<std::string> paths, dataset::InputOptions options);

/// `factory` whose every source must read with `schema`, settled by an earlier open of the same
/// input (Pipeline::ReadFiles): DataError naming step `step` and both schemas for one that does not.
SourceFactory SettledFactory(SourceFactory factory, SchemaPtr schema, std::string step);

/// The input of a Read node. The source opened when the pipeline was built (for its schema) is
/// the one the first pass reads, so an input that can be read only once (standard input, a FIFO)
/// is read exactly once; a later pass (a side input computed first over the same input, or a
/// second run of the pipeline, a run on another file system than the build's) opens the input
/// again through its factory. Thread-safe.
class ReadInput {
 public:
  /// `opened` (opened on `opened_on`) is taken by the first Open() on that file system;
  /// `reopen` (may be null: the input cannot be read twice) serves every other. `name` names
  /// the input in errors.
  ReadInput(std::unique_ptr<Source> opened, std::shared_ptr<FileSystem> opened_on, SourceFactory reopen,
            std::string name);

  /// True when the input can be read by more than one pass.
  bool reopenable() const { return reopen_ != nullptr; }
  /// OK when `passes` more passes can read the input: any number when it can be reopened, else
  /// one while the build-time source is still there; otherwise InvalidArgument saying why.
  Status CheckPasses(int passes);
  /// The source to read on `file_system` (the run's): the one opened at build time the first
  /// time when it was opened there, else a fresh one. InvalidArgument when the build-time source
  /// was taken or is on another file system and the input cannot be reopened.
  Result<std::unique_ptr<Source>> Open(const std::shared_ptr<FileSystem>& file_system);

 private:
  std::mutex mutex_;
  std::unique_ptr<Source> opened_;
  const std::shared_ptr<FileSystem> opened_on_;
  const SourceFactory reopen_;
  const std::string name_;
};

}  // namespace recflow::pipeline
