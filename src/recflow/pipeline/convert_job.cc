// RunConvert: a stage program that projects each batch and feeds it to the dataset sink; then commit.
#include "recflow/pipeline/convert_job.h"

#include <memory>

#include "recflow/pipeline/abort_outputs.h"

namespace recflow::pipeline {

namespace {

class ConvertProgram final : public StageProgram {
 public:
  explicit ConvertProgram(const ConvertOptions& options) : options_(options) {}

  Result<std::unique_ptr<UnitState>> Process(const UnitInfo&, DecodedUnit decoded, SinkFeed& feed) override {
    std::shared_ptr<RecordBatch> batch = std::move(decoded.batch);
    if (options_.projection) {
      ASSIGN_OR_RETURN(batch, options_.projection->Apply(*batch));
    }
    RETURN_NOT_OK(feed.Feed(0, batch));
    return std::unique_ptr<UnitState>();
  }
  Status Assign(const UnitInfo&, UnitState*) override { return Status::OK(); }
  void OnSkipped(size_t, const SkippedRecord& record) override {
    if (options_.on_skipped) options_.on_skipped(record);
  }

 private:
  const ConvertOptions& options_;
};

}  // namespace

Result<ConvertStats> RunConvert(const ExecContext& context, Source* source, dataset::DatasetSink* sink,
                                const ConvertOptions& options) {
  ConvertProgram program(options);
  StageOptions stage_options;
  stage_options.max_in_flight = options.max_in_flight;
  stage_options.progress = options.progress;
  auto stage = RunStage(context, {source}, {{sink, ""}}, &program, stage_options);
  Status st = stage.status();
  if (st.ok()) st = sink->Finish();
  if (st.ok()) st = context.stop_token.PassPointOfNoReturn();
  if (st.ok()) st = sink->Commit();
  if (!st.ok()) return AbortOutputs(std::move(st), {sink});
  ConvertStats stats;
  stats.input_records = stage->input_records;
  stats.skipped_records = stage->skipped_records;
  stats.input_bytes = stage->input_bytes;
  stats.threads = stage->threads;
  stats.sink = sink->stats();
  return stats;
}

}  // namespace recflow::pipeline
