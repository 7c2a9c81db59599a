// PipelineStageProgram: one stage of a plan as a StageProgram — fused steps on each unit, their results fed to the
// stage's sinks (writes, groupings, kept side inputs, the caller's outputs).
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "recflow/pipeline/dead_letters.h"
#include "recflow/pipeline/metrics.h"
#include "recflow/pipeline/plan.h"
#include "recflow/pipeline/stage_executor.h"
#include "recflow/pipeline/windowed_grouping.h"

namespace recflow::pipeline {

/// What one stage reads from and feeds, owned by the runner across stages.
struct StageResources {
  const Pipeline* pipeline = nullptr;
  const Stage* stage = nullptr;
  int stage_number = 0;                                      ///< 1-based
  std::map<int, SideInputs>* side_inputs = nullptr;          ///< per ParDo node, complete for this stage
  std::map<int, size_t> consumer_sinks;  ///< per write and barrier node of the stage: its sink's index
  std::map<int, size_t> kept_sinks;      ///< per materialized node of the stage: the index of the sink keeping it
  std::map<int, size_t> output_sinks;    ///< per output node of the stage: the index of the caller's sink
  std::map<int, WindowedGrouping*> windowed;  ///< per windowed grouping of the stage: its sink (told each unit's RowOrigin)
  DeadLetters* dead_letters = nullptr;
  RunMetrics* metrics = nullptr;
  RunFiles* run_files = nullptr;  ///< the run's file system, stop token and files (ProcessContext::run_files)
};

/// The program of one stage; inputs are the stage's roots in order.
class PipelineStageProgram final : public StageProgram {
 public:
  explicit PipelineStageProgram(StageResources resources);
  Result<std::unique_ptr<UnitState>> Process(const UnitInfo& unit, DecodedUnit decoded, SinkFeed& feed) override;
  Status Assign(const UnitInfo& unit, UnitState* state) override;
  void OnSkipped(size_t input, const SkippedRecord& record) override;

 private:
  // Runs ParDo `node` on `input`; failed rows follow the node's policy.
  Result<ElementBatch> RunParDo(const Node& node, const ElementBatch& input, const UnitInfo& unit,
                                std::vector<DeadLetter>* letters) const;

  StageResources r_;
  Status skipped_error_;  // a dead letter of a skipped record that could not be written (reported by Assign)
};

}  // namespace recflow::pipeline
