// RunMetrics: per-step and per-stage counters of a pipeline run — live while it runs, a table and JSON at the end.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "recflow/core/status.h"
#include "recflow/pipeline/pipeline.h"
#include "recflow/pipeline/stage_executor.h"

namespace recflow::pipeline {

/// Counters of one step, summed over the stages it runs in; updated from any thread.
struct StepMetrics {
  std::string name;
  std::string kind;
  int stage = 0;                          ///< the last stage it ran in (1-based)
  std::atomic<int64_t> rows_in{0};
  std::atomic<int64_t> rows_out{0};
  std::atomic<int64_t> batches{0};
  std::atomic<int64_t> busy_ns{0};        ///< thread time spent in the step
  std::atomic<int64_t> failed_rows{0};    ///< rows the step could not process
  std::atomic<int64_t> skipped_rows{0};   ///< of those, dropped (on_error skip)
  std::atomic<int64_t> dead_letters{0};   ///< of those, written to the dead-letter file
  /// A GroupByKey or combine whose output streamed into the stage reading it: the most batches
  /// that waited in its queue at once (at most RunOptions::queue_batches); 0 otherwise.
  std::atomic<int64_t> queue_high_water{0};
};

/// Counters of one stage.
struct StageMetrics {
  /// What the table calls it after "stage " (empty: its 1-based number).
  std::string name;
  StageProgress progress;
  std::atomic<int64_t> wall_ns{0};
  std::atomic<bool> running{false};
  std::atomic<bool> done{false};
};

/// What a node of a stage cut into a pipeline of its own (pipeline/stage_cut.h) counts towards:
/// node `node` of the whole pipeline (-1: none, a node the cut added), with its rows in and its
/// rows out, except where the cut split that node in two (a pre-aggregated combine: the map
/// side's partial aggregation counts the rows in, the reduce side's merge the rows out).
struct CutOrigin {
  int node = -1;
  bool rows_in = true;
  bool rows_out = true;
  bool operator==(const CutOrigin&) const = default;
};

/// Every step's and stage's counters of one run.
class RunMetrics {
 public:
  /// Zeroed counters for the nodes of `pipeline` and `stages` stages. When it already had that
  /// many steps and stages, their counters are zeroed in place (their addresses stay valid), so
  /// a caller may reset it before RunPipeline does and read the counters from another thread
  /// throughout the run.
  void Reset(const Pipeline& pipeline, size_t stages);
  /// Node `id`'s counters.
  StepMetrics& step(int id) { return steps_[static_cast<size_t>(id)]; }
  const StepMetrics& step(int id) const { return steps_[static_cast<size_t>(id)]; }
  /// Stage `s`'s (0-based) counters.
  StageMetrics& stage(size_t s) { return stages_[s]; }
  size_t num_steps() const { return steps_.size(); }
  size_t num_stages() const { return stages_.size(); }

  /// A few lines for a live display: the running stage, its queue (units read but not yet
  /// started), and each step's rows so far.
  std::string LiveText() const;
  /// The final table: per step rows in/out, batches, busy seconds, share of busy time, rows/s
  /// of busy time, failures; per stage wall time.
  std::string Table() const;
  /// The same as a JSON object {"stages": [...], "steps": [...]}.
  std::string Json() const;

  /// Every counter, steps then stages in order, as one list: what a distributed task (recflow.dask)
  /// sends back to be summed into its job's metrics with AddCounters.
  std::vector<int64_t> Counters() const;
  /// Adds `counters` (Counters() of a run of the same pipeline and plan) to these, and each
  /// step's stage from the plan's numbering; InvalidArgument when their number does not match.
  Status AddCounters(const std::vector<int64_t>& counters, const std::vector<int>& step_stages);
  /// Each step's stage (1-based; 0 for a step that ran in none), as Counters' companion.
  std::vector<int> StepStages() const;
  /// Adds `part`, the metrics of a run of stage `stage` (0-based) of this pipeline's plan cut
  /// into a pipeline of its own (pipeline/stage_cut.h): the counters of its node i to this one's
  /// node origin[i].node (none when -1; its rows in and out as origin[i] says), and the counters
  /// of its stage `part_stage` (0-based: the one that read the stage's input,
  /// StageCut::counted_stage) to that stage's. Steps' stage numbers are left as they are.
  void AddCut(const RunMetrics& part, const std::vector<CutOrigin>& origin, size_t part_stage, size_t stage);

 private:
  std::deque<StepMetrics> steps_;
  std::deque<StageMetrics> stages_;
};

/// Adds the time from construction to destruction to a counter (a step's busy time).
class BusyTimer {
 public:
  explicit BusyTimer(std::atomic<int64_t>* counter) : counter_(counter), start_(std::chrono::steady_clock::now()) {}
  ~BusyTimer() {
    counter_->fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count(),
                        std::memory_order_relaxed);
  }
  BusyTimer(const BusyTimer&) = delete;
  BusyTimer& operator=(const BusyTimer&) = delete;

 private:
  std::atomic<int64_t>* counter_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace recflow::pipeline
