// GroupingSnapshot: a windowed grouping's state as Arrow record batches (keys, windows, rows), and as the bytes of a
// checkpoint's state file.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/buffer.h"
#include "recflow/core/result.h"
#include "recflow/pipeline/window/windowed_state.h"

namespace recflow::pipeline {

/// The state of one windowed grouping between two bundles by its logical contents, not its
/// layout (docs/streaming.md, "Checkpoints"): what a restarted run restores to go on exactly
/// as the uninterrupted one.
struct GroupingSnapshot {
  window::Millis watermark = window::kMinTime;         ///< the input watermark
  window::Millis processing_time = 0;                  ///< the processing-time clock
  window::Millis output_watermark = window::kMinTime;  ///< the last watermark passed on
  /// Every key seen, in the order it was first seen (the grouping's key columns).
  std::shared_ptr<RecordBatch> keys;
  /// One row per window held: the WindowSnapshotFields columns, then the grouping's own (a
  /// GroupByKey's count of rows, a combine's accumulator states).
  std::shared_ptr<RecordBatch> windows;
  /// A GroupByKey's: the rows of its open windows (its input's schema), window after window.
  /// Null for a combine.
  std::shared_ptr<RecordBatch> rows;
};

/// The columns a snapshot has for each window: key (the key's index in `keys`), start, end,
/// new_elements, min_time, max_time, pane_timing, pane_index, pane_nonspeculative_index, flags
/// (1 has_pane, 2 closed, 4 late_for_output, 8 the last pane's is_first, 16 its is_last), all
/// int64, and trigger (binary: per trigger node, four little-endian int64s — finished,
/// on_time_fired, count, target).
std::vector<FieldPtr> WindowSnapshotFields();

/// The WindowSnapshotFields columns of `windows`.
Result<std::vector<std::shared_ptr<ArrayData>>> WindowSnapshotColumns(const std::vector<window::WindowSnapshot>& windows);

/// The windows of `batch`, whose first columns are WindowSnapshotFields' (slots left at -1).
/// DataError naming the window when one cannot be read.
Result<std::vector<window::WindowSnapshot>> ReadWindowSnapshots(const RecordBatch& batch);

/// `snapshot` as the bytes of a state file: a header line `recflow-state 1 WATERMARK
/// PROCESSING_TIME OUTPUT_WATERMARK KEYS WINDOWS ROWS` (the last three: byte lengths), then the
/// three batches, each an Arrow IPC stream (ROWS 0 when there are no rows).
Result<std::shared_ptr<Buffer>> EncodeSnapshot(const GroupingSnapshot& snapshot);

/// The snapshot in `data` (EncodeSnapshot's bytes), read without copying; DataError naming
/// `name` and the byte offset when it is not one.
Result<GroupingSnapshot> DecodeSnapshot(const std::shared_ptr<Buffer>& data, const std::string& name);

}  // namespace recflow::pipeline
