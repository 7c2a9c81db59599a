// Checkpoint: the manifest an unbounded run saves at an epoch commit (its generation, epochs committed per write,
// positions per unbounded read, the window state files, the dead-letter files' lengths, whether the run drained),
// written durably and atomically, and read back — a corrupt or half-written one refused by name.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "recflow/core/buffer.h"
#include "recflow/core/filesystem.h"
#include "recflow/core/result.h"

namespace recflow::pipeline {

/// A window state file of a checkpoint (a windowed grouping's GroupingSnapshot, EncodeSnapshot's
/// bytes): its name in the checkpoint's directory, its length and CRC32C.
struct StateFile {
  std::string name;
  int64_t bytes = 0;
  uint32_t crc32c = 0;
};

/// What a restart of an unbounded run resumes from (docs/streaming.md, "Checkpoints").
struct Checkpoint {
  /// The run generation that saved it (docs/streaming.md, "Generations"): 0 for a job's first runs, one more for each
  /// restart on a drained checkpoint. A version 2 checkpoint has none: generation 0.
  int64_t generation = 0;
  /// Saved by a run that drained (its window state at the end of time): a restart on it starts the next generation
  /// (NextGeneration) rather than restoring that state. A version 2 checkpoint is not.
  bool drained = false;
  /// Per write step committing per epoch: the epochs it committed (its next epoch's number).
  std::map<std::string, int64_t> epochs;
  /// Per unbounded read step: its CheckpointedSource::Position at the mark the state was taken at.
  std::map<std::string, std::vector<std::string>> positions;
  /// Per windowed grouping step: the file of its state then.
  std::map<std::string, StateFile> states;
  /// Per dead-letter file (by its path in the pipeline) of the steps before a checkpointed windowed grouping: its
  /// length in bytes, durable, at the marks the positions were taken at (the letters of what the positions cover). A
  /// restart keeps those bytes and appends (DeadLetters::Open). A version 2 or 3 checkpoint has none.
  std::map<std::string, int64_t> letters;
};

/// What a restart on `drained` (a drained run's checkpoint) resumes from: generation + 1, the positions of the reads
/// (nothing they cover is read again), the dead-letter lengths (its letters stay, the new ones follow), no epochs (the
/// new generation's writes count theirs from 0) and no window state (its windows and watermarks start fresh).
Checkpoint NextGeneration(const Checkpoint& drained);

/// The checkpoint file in directory `dir`.
std::string CheckpointFile(const std::string& dir);

/// Writes `checkpoint` into `dir` (created when missing) durably and atomically: a hidden file
/// written and fsynced, renamed over the checkpoint file, the directory fsynced; then removes
/// the state files it no longer names. The file is a header line `recflow-checkpoint 4 LENGTH
/// CRC32C` and LENGTH bytes of JSON.
Status WriteCheckpoint(FileSystem& fs, const std::string& dir, const Checkpoint& checkpoint);

/// Writes `data` as state file `name` of `dir` (created when missing): a hidden file written
/// and fsynced, renamed in (made durable by the directory fsync of the checkpoint naming it).
Result<StateFile> WriteStateFile(FileSystem& fs, const std::string& dir, const std::string& name, const Buffer& data);

/// The bytes of state file `file` of `dir`; DataError naming the file when they are not the ones
/// the checkpoint names (missing, cut short, another checksum).
Result<std::shared_ptr<Buffer>> ReadStateFile(FileSystem& fs, const std::string& dir, const StateFile& file);

/// The checkpoint in `dir` (version 4; 3: no letters; 2: no letters, generation 0, not drained), nullopt when there is
/// none. DataError naming the file and the byte offset when it is not one, was cut short or does not match its
/// checksum.
Result<std::optional<Checkpoint>> ReadCheckpoint(FileSystem& fs, const std::string& dir);

}  // namespace recflow::pipeline
