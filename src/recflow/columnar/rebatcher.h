// Rebatcher: record batches re-cut to a fixed size, with TensorFlow I/O's batch modes.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow {

/// TensorFlow I/O's batch_mode: fixed batches keeping the last partial one, dropping it, or
/// batches as they come.
enum class BatchMode : uint8_t { kKeepRemainder, kDropRemainder, kAuto };

/// Parses "keep_remainder", "drop_remainder" and "auto".
Result<BatchMode> ParseBatchMode(std::string_view name);

/// Cuts a sequence of batches of one schema into batches of `batch_size` rows (zero-copy
/// slices when a batch lies within one input batch, concatenated otherwise).
class Rebatcher {
 public:
  /// `batch_size` >= 1, unless `mode` is kAuto (then it is ignored).
  Rebatcher(int64_t batch_size, BatchMode mode) : batch_size_(batch_size), mode_(mode) {}

  /// Adds `batch`; returns the batches now complete, in order.
  Result<std::vector<std::shared_ptr<RecordBatch>>> Add(std::shared_ptr<RecordBatch> batch);
  /// The rows left at the end: one partial batch (kKeepRemainder) or none.
  Result<std::vector<std::shared_ptr<RecordBatch>>> Finish();
  /// The rows added and not yet returned, as slices of the batches they came from.
  const std::vector<std::shared_ptr<RecordBatch>>& pending() const { return pending_; }

 private:
  Result<std::shared_ptr<RecordBatch>> Take(int64_t rows);

  int64_t batch_size_;
  BatchMode mode_;
  std::vector<std::shared_ptr<RecordBatch>> pending_;  // slices not yet emitted
  int64_t pending_rows_ = 0;
};

}  // namespace recflow
