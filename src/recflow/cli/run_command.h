// `recflow run` and `recflow plan`: pipelines written in YAML — run them with live per-step metrics, or print their plan.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "recflow/cli/stdout_writer.h"
#include "recflow/core/exec_context.h"
#include "recflow/core/status.h"

namespace recflow::cli {

/// Raw values of `recflow run` / `recflow plan` flags.
struct RunFlags {
  std::string pipeline;            ///< the YAML file
  std::vector<std::string> set;    ///< KEY=VALUE parameter overrides
  int threads = 0;
  std::string metrics_file;        ///< run: --metrics FILE.json
  bool quiet = false;              ///< run: no metrics table
  double stop_after_idle = -1;     ///< run: --stop-after-idle SECONDS for unbounded reads; negative: none
  std::string checkpoint;          ///< run: --checkpoint DIR of an unbounded run; empty: none
  double checkpoint_interval = 0;  ///< run: --checkpoint-interval SECONDS between checkpoints
  bool dot = false;                ///< plan: Graphviz output
  std::string runner = "local";    ///< run: local, or dask (ExecDaskRun)
  std::string scheduler;           ///< run --runner dask: the scheduler's address
  int64_t split_bytes = 0;         ///< run --runner dask: bytes per task (0: from the input sizes)
  int partitions = 0;              ///< run --runner dask: partitions of each exchange (0: from the input sizes)
};

/// Prints every op with its one-line summary on `out`.
Status RunStepsCommand(StdoutWriter* out);

/// Runs the pipeline in `context` (whose threads are --threads): live per-step counters on
/// stderr when it is a terminal, the metrics table on stderr at the end, and --metrics as JSON.
/// A stop on the context's token returns Cancelled, saying what was removed. When the pipeline is
/// unbounded, `drain_first` (may be null) is set before it runs, so the first termination signal
/// drains it (the context's drain token) and only a second one stops it.
Status RunPipelineCommand(const ExecContext& context, const RunFlags& flags, std::atomic<bool>* drain_first);
/// Prints the pipeline's stages (or Graphviz with --dot) on `out`.
Status RunPlanCommand(const RunFlags& flags, StdoutWriter* out);

}  // namespace recflow::cli
