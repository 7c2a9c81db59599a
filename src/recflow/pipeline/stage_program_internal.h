// PipelineStageProgram: one stage of a plan as a StageProgram — fused steps on each unit, then writes, grouping and
// side-input collection in input order.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "recflow/pipeline/dead_letters.h"
#include "recflow/pipeline/grouping.h"
#include "recflow/pipeline/metrics.h"
#include "recflow/pipeline/plan.h"
#include "recflow/pipeline/sink_writer.h"
#include "recflow/pipeline/stage_executor.h"

namespace recflow::pipeline {

/// What one stage reads from and feeds, owned by the runner across stages.
struct StageResources {
  const Pipeline* pipeline = nullptr;
  const Stage* stage = nullptr;
  int stage_number = 0;                                      ///< 1-based
  std::map<int, SideInputs>* side_inputs = nullptr;          ///< per ParDo node, complete for this stage
  std::map<int, std::unique_ptr<SinkWriter>>* writers = nullptr;  ///< per write node of this stage
  std::map<int, std::unique_ptr<GroupedState>>* grouped = nullptr;  ///< per barrier node of this stage
  std::map<int, std::vector<std::shared_ptr<RecordBatch>>>* kept = nullptr;  ///< per materialized node
  DeadLetters* dead_letters = nullptr;
  RunMetrics* metrics = nullptr;
};

/// The program of one stage; inputs are the stage's roots in order.
class PipelineStageProgram final : public StageProgram {
 public:
  explicit PipelineStageProgram(StageResources resources);
  Result<std::unique_ptr<UnitState>> Process(const UnitInfo& unit, DecodedUnit decoded) override;
  Status Assign(const UnitInfo& unit, UnitState* state) override;
  Status Compress(UnitState* state) override;
  Status Write(UnitState* state) override;
  void OnSkipped(size_t input, const SkippedRecord& record) override;

 private:
  // Runs ParDo `node` on `input`; failed rows follow the node's policy.
  Result<ElementBatch> RunParDo(const Node& node, const ElementBatch& input, const UnitInfo& unit,
                                std::vector<DeadLetter>* letters) const;

  StageResources r_;
  Status skipped_error_;  // a dead letter of a skipped record that could not be written (reported by Assign)
};

}  // namespace recflow::pipeline
