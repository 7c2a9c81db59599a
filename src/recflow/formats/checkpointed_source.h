// CheckpointedSource: what an unbounded source gives a checkpointed run — its position as of a watermark it gave,
// saved with the window state a checkpoint snapshots — and how it resumes past one after a restart.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "recflow/core/status.h"

namespace recflow {

/// Implemented beside Source by an unbounded source whose runs can be checkpointed
/// (docs/streaming.md, "Checkpoints"). A checkpoint saves the source's position as of one of its
/// watermark tokens with the state the rows before that token made; a restart skips what the
/// position names. Positions are opaque entries (the watch: the names of the files it read).
class CheckpointedSource {
 public:
  virtual ~CheckpointedSource() = default;
  /// The position as of the watermark token of time `watermark` the source gave — what its
  /// units before that token read — when a restart can resume there (the watch: the token came
  /// between two files); nullopt otherwise. Asked in the order the tokens were given (earlier
  /// ones may be forgotten). Thread-safe: called from the thread merging the source's rows.
  virtual std::optional<std::vector<std::string>> PositionAt(int64_t watermark) = 0;
  /// The position after everything read so far. Thread-safe.
  virtual std::vector<std::string> Position() const = 0;
  /// Before the first NextUnit: go on past `position` (a position a checkpoint saved), never
  /// reading again what it names. DataError when the position is not one of this source.
  virtual Status Resume(const std::vector<std::string>& position) = 0;
  /// The checkpoint saving `position` (one PositionAt or Position gave) is durable (its manifest
  /// renamed in, the directory fsynced): a restart never reads again what it names, so the source
  /// may release it (a broker's source acknowledges those messages). Called in the order the
  /// checkpoints are written, from the thread that wrote it. Thread-safe. Nothing by default (the
  /// watch holds nothing).
  virtual Status Checkpointed(const std::vector<std::string>& position) {
    (void)position;
    return Status::OK();
  }
};

}  // namespace recflow
