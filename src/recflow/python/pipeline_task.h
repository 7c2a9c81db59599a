// The native halves of recflow.dask.run: a pipeline's job (its stages, their reads' splits, the writes' and exchanges'
// commit jobs, the summed metrics) in the driver, and one task's run of one stage in a worker.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/dataset/commit.h"
#include "recflow/dataset/dataset_factory.h"
#include "recflow/dataset/dataset_sink.h"
#include "recflow/dataset/sink_options.h"
#include "recflow/pipeline/metrics.h"
#include "recflow/pipeline/plan.h"
#include "recflow/pipeline/run_files.h"
#include "recflow/pipeline/stage_cut.h"
#include "recflow/pipeline/step_registry.h"
#include "recflow/pipeline/yaml_pipeline.h"
#include "recflow/python/pipeline_source.h"

namespace recflow::python {

/// A stage of a pipeline job as the driver schedules it.
struct JobStage {
  /// Its root and the steps each of its tasks runs, in graph order (what names its tasks).
  std::vector<std::string> steps;
  /// The exchanges it reads (one task per partition), or none: it reads splits of its read.
  std::vector<int> reads;
  /// Those of `reads` that are a combine_globally's: task 0 alone reads all their partitions (in
  /// partition order) and outputs the global combine's one row; the other tasks leave them out.
  std::vector<int> global_reads;
  /// The side values its steps read (exchange numbers): every task reads all of each one's files.
  std::vector<int> sides;
  /// The numbers (PipelineJob::Writes) of the writes it feeds, and of the exchanges it writes (its
  /// groupings' rows, then the side values it keeps).
  std::vector<int> writes;
  std::vector<int> exchanges;
};

/// (a step's name, its job id, the directory its task attempts write in).
using TaskOutput = std::tuple<std::string, std::string, std::string>;

/// The driver's side of a pipeline run on a Dask cluster. Each stage of the plan runs as tasks:
/// a stage starting from a read of files one task per split, a stage starting from GroupByKeys or
/// combines one task per partition of their exchanges — the rows of each grouping's input, which the
/// tasks of the stage feeding it wrote hash-partitioned by key into Arrow IPC files, a dataset
/// committed (attempts adopted, as a write's) under the first write's attempts directory. Each
/// write's commit job is begun here (DatasetCommitter, as a convert's); Commit prepares every
/// output, then swaps each in, in the order of their paths, as the local runner does.
class PipelineJob {
 public:
  /// Loads the pipeline of `source` with `params` and the steps of `registry`, checks that every
  /// stage can be cut (pipeline::CheckStage; InvalidArgument naming the step) and begins each
  /// write's commit job (its save mode checked now) and each exchange's.
  static Result<std::unique_ptr<PipelineJob>> Begin(const PipelineSource& source, const PipelineParams& params,
                                                    const pipeline::StepRegistry& registry);

  /// The pipeline's name.
  const std::string& name() const { return loaded_.name; }
  /// Its stages in the order they run.
  const std::vector<JobStage>& stages() const { return stages_; }
  /// The schema of every read of files, by step name, as the bytes of an Arrow IPC stream of it
  /// (no batch): settled here once, each task builds the pipeline's reads with them
  /// (PipelineTaskInput::read_schemas) instead of sampling every input again.
  Result<std::map<std::string, std::string>> ReadSchemas() const;
  /// The pipeline's dead-letter files (their paths as its steps name them).
  std::vector<std::string> DeadLetterFiles() const;
  /// Bytes of the reads' files.
  int64_t input_bytes() const { return input_bytes_; }
  /// Stage `stage`'s read's files cut into splits of about `target_bytes` (JSON lines).
  Result<std::vector<std::string>> Splits(size_t stage, int64_t target_bytes) const;
  /// Per write step: (its name, its job id, the directory its task attempts write in).
  Result<std::vector<TaskOutput>> Writes();
  /// Per exchange: (the name of the write step a task feeds it through, its job id, the directory
  /// its task attempts write in).
  Result<std::vector<TaskOutput>> Exchanges();
  /// The directory exchange `exchange` is committed in (its partitions' files in
  /// `recflow_partition=K/`), as tasks are given it.
  const std::string& ExchangeDir(size_t exchange) const;
  /// The files of each of the `partitions` partitions of committed exchange `exchange`, in task order.
  Result<std::vector<std::vector<std::string>>> ExchangeFiles(size_t exchange, int partitions) const;
  /// Adopts the attempt directory `attempt_dir` of write number `write`.
  Status Adopt(size_t write, const std::string& attempt_dir);
  /// Adopts the attempt directory `attempt_dir` of exchange number `exchange`.
  Status AdoptExchange(size_t exchange, const std::string& attempt_dir);
  /// Commits exchange `exchange` (every task of the stage writing it adopted) into ExchangeDir.
  Status CommitExchange(size_t exchange);
  /// Adds one task's metrics (pipeline::RunMetrics::Counters).
  Status AddMetrics(const std::vector<int64_t>& counters);
  /// The summed metrics: the per-step table `recflow run` prints, and its JSON, its steps numbered
  /// by the stages of the local run's plan (pipeline::StepStageNumbers) and each stage a
  /// distributed run adds named for the side value it computes.
  const pipeline::RunMetrics& metrics() const { return metrics_; }
  /// Writes each side file (a vocabulary file) staged from its committed side value, prepares every
  /// output, then swaps each in (in the order of their paths), the side files last, as the local runner does.
  Status Commit();
  /// Abandons every write's job and exchange and removes the staged side files: the outputs stay as they were.
  Status Abort();

 private:
  PipelineJob() = default;

  // The committed side value of node `node` (the exchange keeping it).
  Result<std::shared_ptr<const pipeline::SideInputValue>> SideValue(int node) const;

  struct Exchange {
    int node = -1;      // the grouping whose input rows it carries, or the node whose rows it keeps
    bool kept = false;  // a side value: the rows of `node` itself
    std::string dir;
    std::unique_ptr<dataset::DatasetCommitter> committer;
  };

  pipeline::YamlPipeline loaded_;
  std::vector<pipeline::Stage> cut_stages_;  // pipeline::DistributedStages
  std::vector<int> step_numbers_;            // each step's stage in the local run's table
  std::vector<JobStage> stages_;
  std::map<int, dataset::ResolvedInputs> inputs_;  // each read's files, by the stage reading it
  int64_t input_bytes_ = 0;
  std::vector<std::pair<int, std::unique_ptr<dataset::DatasetCommitter>>> writes_;
  std::vector<Exchange> exchanges_;
  std::unique_ptr<pipeline::RunFiles> side_files_;  // the pipeline's side files, staged at Begin
  pipeline::RunMetrics metrics_;
};

/// What one task of a pipeline job did.
struct PipelineTaskResult {
  std::vector<std::pair<std::string, dataset::SinkStats>> writes;  ///< its writes' and exchanges'
  std::vector<int64_t> counters;  ///< pipeline::RunMetrics::Counters of the whole pipeline
};

/// One task's share of a stage: what it reads and where its outputs go.
struct PipelineTaskInput {
  /// The stage of the plan it runs.
  size_t stage = 0;
  /// Every read's schema as the driver settled it (PipelineJob::ReadSchemas).
  std::map<std::string, std::string> read_schemas;
  /// A read stage: the task's splits (JSON lines).
  std::vector<std::string> splits;
  /// An exchange stage: the Arrow IPC files of the task's partition of each exchange it reads
  /// (by exchange number), in task order, and every file of each side value its steps read; an exchange left out is none of the task's (its
  /// grouping outputs no rows in this task: a combine_globally's row comes from task 0 only).
  std::map<int, std::vector<std::string>> exchange_files;
  /// Partitions of the exchanges the stage writes, and where each is committed (by exchange number).
  int partitions = 1;
  std::map<int, std::string> exchange_dirs;
};

/// One task attempt (in a worker): loads the pipeline of `source` with `params`, the steps of
/// `registry` and the read schemas of `input` (the driver's; no input is opened to infer one) and runs stage
/// `input.stage` of its plan cut out of it (pipeline::CutStage) on `threads` engine threads over
/// the task's splits or partition, each write and exchange as `tasks` says (by write step name:
/// its attempt directory, job id, index and count) and each dead-letter file written where
/// `dead_letters` says (by its path in the pipeline). On failure the attempts' directories are removed.
Result<PipelineTaskResult> RunPipelineTask(const PipelineSource& source, const PipelineParams& params,
                                           const pipeline::StepRegistry& registry, const PipelineTaskInput& input,
                                           std::map<std::string, dataset::TaskAttempt> tasks,
                                           std::map<std::string, std::string> dead_letters, int threads);

}  // namespace recflow::python
