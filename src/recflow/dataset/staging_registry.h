// The process's unfinished outputs, for a termination handler (SIGTERM, SIGINT) to remove so that nothing is left behind.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "recflow/core/filesystem.h"
#include "recflow/core/status.h"

namespace recflow::dataset {

/// One unfinished output of this process in a process-wide registry: what must be removed if
/// the process is terminated before the output is committed. Registered on construction, taken
/// off on destruction. Thread-safe.
class StagingRegistration {
 public:
  /// Registers an output on `fs`, named `output` in the termination message.
  StagingRegistration(std::string output, std::shared_ptr<FileSystem> fs);
  /// Takes the output off the registry.
  ~StagingRegistration();
  StagingRegistration(const StagingRegistration&) = delete;
  StagingRegistration& operator=(const StagingRegistration&) = delete;

  /// Adds a directory tree or file to remove on termination (in the order added).
  void AddPath(const std::string& path);
  /// Takes a path added before off the list.
  void RemovePath(const std::string& path);
  /// Adds a directory created for the output, removed on termination when it is then empty
  /// (after every path; the deepest first when added deepest first).
  void AddCreatedDirectory(const std::string& dir);
  /// Runs `swap` (the rename that commits the output) while no termination handler can run,
  /// and records that the output is committed when it succeeds: a handler either runs before
  /// and removes the staging, or after and reports the output as committed.
  Status Swap(const std::function<Status()>& swap);
  /// Swap() for a swap whose failure can leave data that must survive the process: the paths
  /// `swap` puts in `keep` (it fails) are taken off the registry before any termination
  /// handler can run, so that neither the handler nor the job removes them.
  Status SwapKeeping(const std::function<Status(std::vector<std::string>& keep)>& swap);

 private:
  int id_;
};

/// What a message says of an output whose unfinished job was removed: "removed the unfinished
/// output of 'OUT'; what was there is unchanged".
std::string RemovedOutputNote(const std::string& output);

/// For a termination handler: locks the registry for good (no swap can start after this; the
/// process is expected to exit) and removes every registered path. A directory is first
/// renamed (with `.removing` appended) so that threads still writing into it cannot recreate
/// anything there, then deleted. Returns one line per registered output saying what happened.
std::vector<std::string> RemoveUnfinishedOutputs();

}  // namespace recflow::dataset
