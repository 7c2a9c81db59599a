// StageCut: one stage of a pipeline's plan as a pipeline of its own, its groupings' rows exchanged through files —
// what a task of a distributed run (recflow.dask) runs.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "recflow/dataset/sink_options.h"
#include "recflow/pipeline/metrics.h"
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
/// once, then every task of the stage using it reads it). With `names`, also each stage's name in
/// the per-step table: its plan stage's number, or for an added stage that number and what it
/// computes ("1 (side value of fit)"), so the table numbers stages as the local run's does.
std::vector<Stage> DistributedStages(const Pipeline& pipeline, const Plan& plan,
                                     std::vector<std::string>* names = nullptr);

/// The shape of `stage` of `pipeline` (one of DistributedStages), or InvalidArgument naming the
/// step a distributed run cannot cut yet: a stage of several reads or of a read and groupings, a
/// windowed step, a side input taken by a step that is not a map.
Result<StageShape> CheckStage(const Pipeline& pipeline, const Stage& stage);

/// The name of the write step a cut stage feeds grouping `grouping`'s exchange through, and of
/// the read of the exchange in the stage that groups it.
std::string ExchangeStepName(const Node& grouping);

/// The rows grouping `grouping`'s exchange carries: its input's, or, for a combine whose every
/// aggregate has a state form (LiftCombine), one row of per-task states per key: the partial
/// rows (keys, then states).
SchemaPtr ExchangeSchema(const Pipeline& whole, const Node& grouping);

/// The name of the step a cut stage pre-aggregates combine `grouping`'s input through before
/// its exchange (LiftCombine's partial aggregates).
std::string PartialStepName(const Node& grouping);

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
  /// Per node of `pipeline`: the node of the whole pipeline it is (-1 for nodes the cut added:
  /// a grouping root's read of the exchange, the partition steps and exchange writes), a
  /// pre-aggregated combine's partial step counting its rows in and its merge its rows out.
  std::vector<CutOrigin> origin;
  /// The stage of `pipeline`'s plan (0-based) that runs the cut stage's steps from its input (the
  /// task's splits, or its groupings' output): its counters are the stage's
  /// (RunMetrics::AddCut), where the cut's other stages read an exchange or pre-aggregate.
  size_t counted_stage = 0;
};

/// Stage `stage` (CheckStage's shape `shape`) of `whole` as a pipeline of its own: its read root
/// read from `options.input`, or each grouping root's partition read from `options.grouped` as a
/// read named ExchangeStepName, then the grouping itself; each side input its steps take read
/// from `options.sides` as a read named SideStepName; its element-wise steps and
/// writes as in `whole`, each
/// grouping it feeds replaced by the partition step (MakeKeyPartitionFn over the grouping's keys)
/// and the write of its exchange, each node it keeps written as a side value (SideStepName). A
/// combine whose every aggregate has a state form is pre-aggregated (LiftCombine): the stage
/// feeding it combines its rows into one state row per key (a step named PartialStepName) before
/// the partition step, and the stage it roots merges the exchanged states (in the order of the
/// files it is given, then of their rows) and finishes them; other groupings exchange their input
/// rows (ExchangeSchema). Its errors name the steps of `whole`.
Result<StageCut> CutStage(const Pipeline& whole, const Stage& stage, const StageShape& shape,
                          const StageCutOptions& options);

}  // namespace recflow::pipeline
