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
  /// The nodes whose whole output it keeps as a side input of a later stage: their rows leave the
  /// stage through an exchange of their own (a side value), which every task of the later stage reads.
  std::vector<int> kept;
  /// The nodes its steps take as side inputs (side values committed by earlier stages).
  std::vector<int> side_reads;
};

/// The stages a distributed run runs, in order: `plan`'s, with, after each stage feeding a
/// GroupByKey or combine some step takes as a side input, a stage of its own whose root is that
/// grouping and which keeps its output (a fitted scaling's or vocabulary's one row is computed
/// once, then every task of the stage using it reads it).
std::vector<Stage> DistributedStages(const Pipeline& pipeline, const Plan& plan);

/// The shape of `stage` of `pipeline` (one of DistributedStages), or InvalidArgument naming the
/// step a distributed run cannot cut yet: a stage of several reads or of a read and groupings, a
/// windowed step, a side input taken by a step that is not a map.
Result<StageShape> CheckStage(const Pipeline& pipeline, const Stage& stage);

/// The name of the write step a cut stage feeds grouping `grouping`'s exchange through, and of
/// the read of the exchange in the stage that groups it.
std::string ExchangeStepName(const Node& grouping);

/// The name of the write step a cut stage keeps node `kept`'s rows (a side value) through, and of
/// the read of them in a stage taking `kept` as a side input.
std::string SideStepName(const Node& kept);

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
  /// Each side input its steps take, by the id of the node giving it: the files of its committed
  /// side value (null: it has no rows).
  std::map<int, SourceFactory> sides;
  /// The side value of each node the stage keeps, by its id: its rows with kKeyPartitionColumn
  /// appended, written as an exchange's (in task mode under the name SideStepName).
  std::map<int, dataset::SinkOptions> kept;
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
/// read named ExchangeStepName, then the grouping itself; each side input its steps take read
/// from `options.sides` as a read named SideStepName; its element-wise steps and
/// writes as in `whole`, each
/// grouping it feeds replaced by the partition step (MakeKeyPartitionFn over the grouping's keys)
/// and the write of its exchange, each node it keeps written as a side value (SideStepName). Its
/// errors name the steps of `whole`.
Result<StageCut> CutStage(const Pipeline& whole, const Stage& stage, const StageShape& shape,
                          const StageCutOptions& options);

}  // namespace recflow::pipeline
