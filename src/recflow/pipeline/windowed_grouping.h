// WindowedGrouping: a GroupByKey or combine of windowed rows — per key and window, panes fired by the trigger
// as merges, watermark and processing-time tokens arrive (window::WindowedState), as a Sink of its stage.
#pragma once

#include <functional>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "recflow/pipeline/batch_queue.h"
#include "recflow/pipeline/dead_letters.h"
#include "recflow/pipeline/grouping.h"
#include "recflow/pipeline/metrics.h"
#include "recflow/pipeline/window_snapshot.h"

namespace recflow::pipeline {

/// Where the rows of the batch a windowed grouping merges next came from: its input file, the
/// records before its unit, and each row's row in the unit (empty: row i is unit row i). Set in
/// input order by the stage program right before the grouping merges that unit's batch, so that
/// a row too late for its window is reported at its file and record.
struct RowOrigin {
  std::string file;
  int64_t first_record = 0;
  std::vector<int64_t> unit_rows;
};

/// Where a windowed grouping whose panes a checkpointed run commits per epoch hands its
/// snapshots (docs/streaming.md, "Checkpoints"). An epoch of the stage reading its panes ends at
/// each watermark it passes on after panes (QueueSource's epochs); the last one at the drain.
struct SnapshotHook {
  /// Whether a snapshot is wanted at the end of an epoch ended by input watermark `watermark`
  /// (a checkpoint is due, and the source can resume from there).
  std::function<bool(window::Millis watermark)> wanted;
  /// The snapshot at the end of this run's `epoch`-th epoch (1 for the first), taken when wanted
  /// and always at the drain (`watermark` kEndOfTime), the input watermark then. Called on the
  /// merging thread, while the source is being read.
  std::function<Status(int64_t epoch, window::Millis watermark, GroupingSnapshot snapshot)> taken;
};

/// A grouping node with a Windowing (Node::windowing) over input rows of schema `input`. Merge
/// assigns each row to its key's windows and fires the panes the trigger fires at the end of
/// the batch (a bundle); OnToken advances the watermark or the processing-time clock and fires
/// what is due; Drain moves the watermark to the end of time (every window fires: a bounded
/// input's end, so batch runs give the same panes). Rows too late for a window (past the
/// allowed lateness, or into a window whose trigger finished) follow the node's on_error:
/// a dead-letter line with their event time, the watermark and the window; counted as
/// skipped; or the run fails naming the row. The fired panes wait, in firing order, as the
/// node's rows for NextOutput (callable between any two Merges, from the merging thread) — or
/// leave as they fire once StreamPanes was called. Memory: the windows' state, the input rows
/// of open windows (a GroupByKey keeps each input batch while a row of it is in an open window
/// or a pane not yet output) or their accumulators (a combine), the keys seen, and the panes
/// fired and not yet taken.
class WindowedGrouping : public GroupedState {
 public:
  /// `letters` (with the node's dead-letter file open) and `metrics` (the node's) outlive it.
  static Result<std::unique_ptr<WindowedGrouping>> Make(const Node& node, const SchemaPtr& input, DeadLetters* letters,
                                                        StepMetrics* metrics);
  /// See RowOrigin.
  void SetOrigin(RowOrigin origin) { origin_ = std::move(origin); }
  /// From now on the panes each Merge, OnToken and Drain fires go into `queue` (the stage link
  /// to the stage reading them, which may wait for room) before it returns: in firing order, in
  /// batches of at most `batch_rows` rows. After the panes a watermark token fires, the output
  /// watermark follows them as a token when it moved — the input watermark held back by the
  /// panes still to fire (WindowedState::OutputHold) — and a processing-time token as it came.
  /// NextOutput then has nothing to give.
  void StreamPanes(BatchQueue* queue, int64_t batch_rows) {
    queue_ = queue;
    queue_rows_ = batch_rows;
  }
  /// From now on (after StreamPanes) snapshots go to `hook` at the ends of epochs.
  void TakeSnapshots(SnapshotHook hook) { hook_ = std::move(hook); }
  /// The state now (between two Merges, with every fired pane handed off), by its logical
  /// contents. InvalidArgument when an aggregate's accumulators have no state form.
  virtual Result<GroupingSnapshot> Snapshot() = 0;
  /// Makes this grouping, fresh, hold `snapshot`, a Snapshot of a grouping of the same step.
  /// DataError when it is not one (other key columns, input columns or aggregates).
  virtual Status Restore(const GroupingSnapshot& snapshot) = 0;

 protected:
  RowOrigin origin_;
  BatchQueue* queue_ = nullptr;  // set by StreamPanes
  int64_t queue_rows_ = 0;
  std::optional<SnapshotHook> hook_;  // set by TakeSnapshots
};

}  // namespace recflow::pipeline
