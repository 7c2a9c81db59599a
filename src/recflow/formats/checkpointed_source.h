// CheckpointedSource: what an unbounded source gives a checkpointed run — its position, saved at each epoch commit —
// and how it resumes from one after a restart.
#pragma once

#include <string>
#include <vector>

#include "recflow/core/status.h"

namespace recflow {

/// Implemented beside Source by an unbounded source whose runs can be checkpointed
/// (docs/streaming.md, "Checkpoints"). The position is what a restart must read again, in the
/// order it was read, as opaque entries (the watch: the files it consumed, in order).
class CheckpointedSource {
 public:
  virtual ~CheckpointedSource() = default;
  /// The position now: everything read so far, in order. Thread-safe: called from the thread
  /// committing an epoch while the source is being read.
  virtual std::vector<std::string> Position() const = 0;
  /// Before the first NextUnit: read `position` (a Position() a checkpoint saved) again first, in
  /// its order, then go on as usual. DataError when the position cannot be replayed.
  virtual Status Resume(const std::vector<std::string>& position) = 0;
};

}  // namespace recflow
