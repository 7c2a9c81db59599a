// ScanSource: a stage program that keeps nothing — the stage executor decodes each unit and counts it.
#include "recflow/pipeline/scan.h"

#include "recflow/pipeline/stage_executor.h"

namespace recflow::pipeline {

namespace {

class ScanProgram final : public StageProgram {
 public:
  Result<std::unique_ptr<UnitState>> Process(const UnitInfo&, DecodedUnit, SinkFeed&) override {
    return std::unique_ptr<UnitState>();
  }
  Status Assign(const UnitInfo&, UnitState*) override { return Status::OK(); }
  void OnSkipped(size_t, const SkippedRecord&) override {}
};

}  // namespace

Result<ScanStats> ScanSource(const ExecContext& context, Source* source) {
  ScanProgram program;
  ASSIGN_OR_RETURN(StageStats stage, RunStage(context, {source}, {}, &program, StageOptions()));
  ScanStats stats;
  stats.records = stage.input_records - stage.skipped_records;
  stats.skipped = stage.skipped_records;
  stats.input_bytes = stage.input_bytes;
  return stats;
}

}  // namespace recflow::pipeline
