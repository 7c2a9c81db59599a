// StageCut: one stage of a pipeline's plan as a pipeline of its own, its groupings' rows exchanged through files —
// what a task of a distributed run (recflow.dask) runs.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "recflow/dataset/sink_options.h"
#include "recflow/pipeline/pipeline.h"
#include "recflow/pipeline/plan.h"

namespace recflow::pipeline {

/// What a distributed run needs to know of one stage of a plan (CheckStage).
struct StageShape {
  /// Its roots: one read (a task reads some of its splits), or GroupByKeys and
  /// combines (a task reads one partition of the exchange of each one's input rows and groups them).
  std::vector<int> roots;
  /// The writes it feeds.
  std::vector<int> writes;
  /// The GroupByKeys and combines it feeds: their input rows leave the stage through an exchange.
  std::vector<int> groupings;
};

/// The shape of `stage` of `pipeline`, or InvalidArgument naming the step a distributed run cannot
/// cut yet: a stage of several reads or of a read and groupings, a windowed step, a step with
/// side inputs, a side file, a kept side input.
Result<StageShape> CheckStage(const Pipeline& pipeline, const Stage& stage);

/// The name of the write step a cut stage feeds grouping `grouping`'s exchange through, and of
/// the read of the exchange in the stage that groups it.
std::string ExchangeStepName(const Node& grouping);

/// The rows a cut stage starts from, and where its groupings' rows go.
struct StageCutOptions {
  /// A read root's rows: the task's splits of the read.
  SourceFactory input;
  /// Each grouping root's input rows, by its id: the task's partition of its exchange (null:
  /// the partition is empty). A grouping root left out outputs no rows in this task (a
  /// combine_globally's one row comes from one task only).
  std::map<int, SourceFactory> grouped;
  /// The exchange dataset of each grouping the stage feeds, by its id: rows of its input with
  /// kKeyPartitionColumn appended, to be written partitioned by that column (a task writes it
  /// in task mode under the name ExchangeStepName).
  std::map<int, dataset::SinkOptions> exchanges;
  /// Partitions of every exchange the stage writes.
  int partitions = 1;
};

/// A stage cut out of its pipeline.
struct StageCut {
  std::unique_ptr<Pipeline> pipeline;
  /// Per node of `pipeline`: the id of the node of the whole pipeline it is (-1 for nodes the cut
  /// added: a grouping root's read of the exchange, the partition steps and exchange writes).
  std::vector<int> origin;
};

/// Stage `stage` (CheckStage's shape `shape`) of `whole` as a pipeline of its own: its read root
/// read from `options.input`, or each grouping root's partition read from `options.grouped` as a
/// read named ExchangeStepName, then the grouping itself; its element-wise steps and
/// writes as in `whole`, and each
/// grouping it feeds replaced by the partition step (MakeKeyPartitionFn over the grouping's keys)
/// and the write of its exchange. Its errors name the steps of `whole`.
Result<StageCut> CutStage(const Pipeline& whole, const Stage& stage, const StageShape& shape,
                          const StageCutOptions& options);

}  // namespace recflow::pipeline
