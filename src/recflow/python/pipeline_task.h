// The native halves of recflow.dask.run: a one-pass pipeline's job (its read's splits, its writes' commit jobs, the
// summed metrics) in the driver, and one task's run of the pipeline over its splits in a worker.
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
#include "recflow/pipeline/yaml_pipeline.h"

namespace recflow::python {

/// `--set` overrides of a pipeline's parameters.
using PipelineParams = std::vector<std::pair<std::string, std::string>>;

/// The driver's side of a pipeline run on a Dask cluster. The pipeline must be one pass (one
/// stage of the plan: one read of files, element-wise steps, writes and dead-letter files): its
/// tasks each run it over some splits of the read. Each write's commit job is begun here
/// (DatasetCommitter, as a convert's); Commit prepares every output, then swaps each in, in
/// the order of their paths, as the local runner does.
class PipelineJob {
 public:
  /// Loads the YAML pipeline at `path` with `params`, checks that it is one pass and begins each
  /// write's commit job (its save mode checked now). InvalidArgument naming the step that makes
  /// a second pass (a group_by_key, a combine, a side input) or a read that is not of files.
  static Result<std::unique_ptr<PipelineJob>> Begin(const std::string& path, const PipelineParams& params);

  /// The pipeline's name.
  const std::string& name() const { return loaded_.name; }
  /// Its read step, and the names of the steps each task runs (the read first), in graph order.
  const std::vector<std::string>& steps() const { return steps_; }
  /// The read's schema as text (a worker checks its own against it).
  std::string read_schema() const;
  /// The pipeline's dead-letter files (their paths as its steps name them).
  std::vector<std::string> DeadLetterFiles() const;
  /// Bytes of the read's files.
  int64_t input_bytes() const { return input_bytes_; }
  /// The read's files cut into splits of about `target_bytes` (JSON lines).
  Result<std::vector<std::string>> Splits(int64_t target_bytes) const;
  /// Per write step: (its name, its job id, the directory its task attempts write in).
  Result<std::vector<std::tuple<std::string, std::string, std::string>>> Writes();
  /// Adopts the attempt directory `attempt_dir` of write number `write`.
  Status Adopt(size_t write, const std::string& attempt_dir);
  /// Adds one task's metrics (pipeline::RunMetrics::Counters, and the stage of each step).
  Status AddMetrics(const std::vector<int64_t>& counters, const std::vector<int>& step_stages);
  /// The summed metrics: the per-step table `recflow run` prints, and its JSON.
  const pipeline::RunMetrics& metrics() const { return metrics_; }
  /// Prepares every output, then swaps each in (in the order of their paths).
  Status Commit();
  /// Abandons every write's job: the outputs stay as they were.
  Status Abort();

 private:
  PipelineJob() = default;

  pipeline::YamlPipeline loaded_;
  int read_ = -1;
  std::vector<std::string> steps_;
  dataset::ResolvedInputs inputs_;
  int64_t input_bytes_ = 0;
  std::vector<std::pair<int, std::unique_ptr<dataset::DatasetCommitter>>> writes_;
  pipeline::RunMetrics metrics_;
};

/// What one task of a pipeline job did.
struct PipelineTaskResult {
  std::vector<std::pair<std::string, dataset::SinkStats>> writes;
  std::vector<int64_t> counters;  ///< pipeline::RunMetrics::Counters
  std::vector<int> step_stages;   ///< pipeline::RunMetrics::StepStages
};

/// One task attempt (in a worker): loads the YAML pipeline at `path` with `params`, checks that its
/// read's schema is `read_schema` (the driver's), and runs it on `threads` engine threads over
/// `splits` of its read, each write as `tasks` says (by write step name: its attempt directory,
/// job id, index and count) and each dead-letter file written where `dead_letters` says
/// (by its path in the pipeline). On failure the attempts' directories are removed.
Result<PipelineTaskResult> RunPipelineTask(const std::string& path, const PipelineParams& params,
                                           const std::string& read_schema, const std::vector<std::string>& splits,
                                           std::map<std::string, dataset::TaskAttempt> tasks,
                                           std::map<std::string, std::string> dead_letters, int threads);

}  // namespace recflow::python
