// Checkpoint: the manifest an unbounded run saves at each epoch commit (epochs committed per write, positions per
// unbounded read), written durably and atomically, and read back — a corrupt or half-written one refused by name.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "recflow/core/filesystem.h"
#include "recflow/core/result.h"

namespace recflow::pipeline {

/// What a restart of an unbounded run resumes from (docs/streaming.md, "Checkpoints").
struct Checkpoint {
  /// Per write step committing per epoch: the epochs it committed (its next epoch's number).
  std::map<std::string, int64_t> epochs;
  /// Per unbounded read step: its CheckpointedSource::Position when the checkpoint was taken.
  std::map<std::string, std::vector<std::string>> positions;
};

/// The checkpoint file in directory `dir`.
std::string CheckpointFile(const std::string& dir);

/// Writes `checkpoint` into `dir` (created when missing) durably and atomically: a hidden file
/// written and fsynced, renamed over the checkpoint file, the directory fsynced. The file is a
/// header line `recflow-checkpoint 1 LENGTH CRC32C` and LENGTH bytes of JSON.
Status WriteCheckpoint(FileSystem& fs, const std::string& dir, const Checkpoint& checkpoint);

/// The checkpoint in `dir`, nullopt when there is none. DataError naming the file and the byte
/// offset when it is not one, was cut short or does not match its checksum.
Result<std::optional<Checkpoint>> ReadCheckpoint(FileSystem& fs, const std::string& dir);

}  // namespace recflow::pipeline
