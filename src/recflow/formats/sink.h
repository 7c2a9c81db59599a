// Sink: the consuming end of a stage — parallel Consume into per-thread state, in-order Merge, parallel Process of
// what Merge left, in-order Emit; then Finish and Commit, or Abort (and per epoch, CommitEpoch).
#pragma once

#include <memory>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/formats/source.h"

namespace recflow {

/// What a sink keeps per worker thread (an encoder, scratch space), made by Sink::NewLocalState.
class SinkLocalState {
 public:
  virtual ~SinkLocalState() = default;
};

/// One batch on its way through a sink: made by Consume, completed by Merge and Process, used up
/// by Emit. Sinks derive their own.
class SinkPartial {
 public:
  virtual ~SinkPartial() = default;
};

/// Where a stage's rows end: dataset files, a grouping or combine, a side input kept in memory, an
/// Arrow IPC stream. The stage executor calls, for each batch of the sink's input in input order:
///   Consume (any thread, concurrently for different batches, with that thread's local state) →
///   Merge (in input order, one thread at a time) →
///   Process (any thread, concurrently) →
///   Emit (in input order, one thread at a time);
/// OnToken between the Merges of the batches a token falls between; after the last batch Drain
/// (whatever the sink still holds, processed and emitted like a batch's partial), then Finish,
/// and later Commit — or Abort at any point after a failure. What a sink outputs depends on the
/// rows, tokens and their order only, never on threads or timing.
class Sink {
 public:
  virtual ~Sink() = default;

  /// A fresh state for one worker thread; the executor makes at most one per thread and keeps it
  /// for the whole stage. Null when the sink needs none (the default).
  virtual Result<std::unique_ptr<SinkLocalState>> NewLocalState() const { return nullptr; }

  /// Prepares `batch` (the sink's input schema) with `local` (this thread's state, or null): encodes,
  /// groups, pre-aggregates. Thread-safe. Errors name the row within `batch`.
  virtual Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState* local,
                                                        const std::shared_ptr<RecordBatch>& batch) const = 0;

  /// Folds `partial` into the sink's state, leaving in it what Process and Emit do next (rows
  /// assigned to files, full chunks to compress). In input order, one thread at a time.
  virtual Status Merge(SinkPartial* partial) = 0;

  /// The heavy work Merge left in `partial` (compressing file chunks). Thread-safe; may run
  /// concurrently for different partials.
  virtual Status Process(SinkPartial* partial) const {
    (void)partial;
    return Status::OK();
  }

  /// Makes `partial`'s result part of the output (appends chunks, sends bytes). In input order,
  /// one thread at a time.
  virtual Status Emit(SinkPartial* partial) {
    (void)partial;
    return Status::OK();
  }

  /// A token (a watermark, a timer firing) that follows, in input order, every batch merged
  /// before it and precedes every batch merged after it; one thread at a time, like Merge. Every
  /// sink of the stage gets it, whether or not the unit carrying it fed the sink rows.
  virtual Status OnToken(const FlowToken& token) {
    (void)token;
    return Status::OK();
  }

  /// After the last Merge: what the sink still holds for output (partial chunks), as one more
  /// partial to Process and Emit; null when there is nothing.
  virtual Result<std::unique_ptr<SinkPartial>> Drain() { return std::unique_ptr<SinkPartial>(); }

  /// Completes the output without publishing it (a dataset's files finished, named and staged
  /// beside the output). Once, after the last Emit; Commit calls it when it was not called.
  virtual Status Finish() { return Status::OK(); }

  /// Publishes the output (swaps the dataset in). Once.
  virtual Status Commit() { return Finish(); }

  /// Abandons the output: nothing of it appears, what was there stays. Idempotent.
  virtual Status Abort() { return Status::OK(); }

  /// Called once, before the first batch, when what Emit would make visible outside the run at
  /// once (a message published) must wait for the run's other outputs: in a stage committing per
  /// epoch (an unbounded run's stage writing a windowed grouping's panes) it is held until
  /// CommitEpoch, so that nothing of an epoch is seen before the epoch's files are committed; in
  /// a stage committing at the run's end (the whole run one epoch) until Commit, which comes after
  /// the run's datasets and files are committed. The default holds nothing (a sink whose output
  /// appears only at Commit needs no hold).
  virtual void HoldEpochs() {}

  /// Makes visible what was held since the last CommitEpoch (see HoldEpochs), once the epoch's
  /// other outputs are committed; Commit does the same for the last (or only) epoch.
  virtual Status CommitEpoch() { return Status::OK(); }
};

}  // namespace recflow
