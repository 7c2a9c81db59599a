// RunPipeline: the local runner — each stage of the plan as one pass on the stage executor, stages at once where their
// inputs allow (grouped outputs streaming through bounded queues), outputs committed together when every stage succeeded.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "recflow/core/exec_context.h"
#include "recflow/dataset/dataset_sink.h"
#include "recflow/formats/sink.h"
#include "recflow/pipeline/metrics.h"
#include "recflow/pipeline/pipeline.h"
#include "recflow/pipeline/plan.h"

namespace recflow::pipeline {

/// How a pipeline runs (its threads and stop token are the ExecContext's).
struct RunOptions {
  /// Units in flight per stage (bounds memory); 0 = 2 × threads + 2.
  int max_in_flight = 0;
  /// Rows per batch of GroupByKey and combine outputs.
  int64_t group_batch_rows = 4096;
  /// Batches a grouped output streaming into the stage that reads it may hold in its queue
  /// (bounds memory: at most this many batches of group_batch_rows rows wait between the stages).
  int queue_batches = 4;
  /// Sinks the caller supplies (borrowed), by the name of the step whose rows they take: each
  /// gets that step's rows in input order as a sink of the stage in which they flow (the step
  /// counts as consumed, so it runs even when nothing else reads it). Their Finish runs with
  /// the outputs' after the last stage, their Commit after the files are committed, their Abort
  /// when the run fails.
  std::map<std::string, Sink*> outputs;
  /// A distributed task's share of the run (recflow.dask), by step name. `inputs`: read steps
  /// whose rows the factory opens instead (a task's splits; the read's schema); `tasks`: write
  /// steps run as one attempt of a task (dataset::TaskAttempt: files staged in the attempt's
  /// directory, not committed); `dead_letter_files`: a dead-letter path → where this run writes
  /// that file instead.
  std::map<std::string, SourceFactory> inputs;
  std::map<std::string, dataset::TaskAttempt> tasks;
  std::map<std::string, std::string> dead_letter_files;
  /// An unbounded run's checkpoint directory (empty: none): at an epoch commit the window state
  /// at the epoch's end, the position of its unbounded read then and the epochs committed are
  /// saved there (WriteCheckpoint); a run that finds a checkpoint there resumes from it
  /// (docs/streaming.md, "Checkpoints"). A pipeline of another shape than read → one windowed
  /// grouping → writes is refused.
  std::string checkpoint_dir;
  /// The least time between two checkpoints (milliseconds; 0: at every epoch commit). An epoch
  /// committed since the last checkpoint is recognised by its files after a restart; the run's
  /// end always saves one.
  int64_t checkpoint_interval_ms = 0;
  /// Default bounds.
  static RunOptions Defaults() { return {}; }
  /// InvalidArgument for a negative max_in_flight, non-positive group_batch_rows or queue_batches,
  /// or a null output.
  Status Validate() const;
};

/// What a finished run did.
struct RunResult {
  /// Each write step's name and what it wrote.
  std::vector<std::pair<std::string, dataset::SinkStats>> writes;
  /// Stages run.
  size_t stages = 0;
};

/// Runs `pipeline` (planned by MakePlan) on the context's threads. A stage starts once the stages
/// making its side inputs and the grouped outputs it reads whole have read all their input; a
/// GroupByKey or combine output that one stage reads, and no step takes as a side input, streams
/// into that stage through a queue of `queue_batches` batches while it is made, so both run at
/// once; stages with no dependency between them run at once, each on the context's threads.
/// Outputs do not depend on which stages overlap or on the thread count. Rows a step fails on follow
/// its on_error policy; any other error stops the run (the stages after the failing one are
/// stopped, earlier ones run on so that the error reported is the one of the earliest failing
/// stage, as if they ran one after the other), names the step (and the input file and record
/// where known), and leaves every output as it was. A stop requested on the context's
/// token before the commits' point of no return does the same and returns Cancelled, saying
/// what was removed (AbortOutputs). Outputs are committed one after the other once all stages
/// succeeded; a write that would publish at once (`write_nats`) holds what it publishes until the
/// datasets and files are committed when the run has any (Sink::HoldEpochs: until its epoch's
/// commit in a stage committing per epoch, until its Commit, after the others', otherwise), so a
/// failed run published none of it. `metrics` (may be null) is reset and updated live.
Result<RunResult> RunPipeline(const ExecContext& context, const Pipeline& pipeline, const RunOptions& options,
                              RunMetrics* metrics);

}  // namespace recflow::pipeline
