// ReadIntoStream (a stage program feeding each decoded unit's batch to the stream's sink unchanged) and
// OutputIntoStream (a pipeline run with the stream's sink as one of its outputs).
#include "recflow/pipeline/read_stream.h"

#include <utility>

namespace recflow::pipeline {

namespace {

class ReadProgram final : public StageProgram {
 public:
  Result<std::unique_ptr<UnitState>> Process(const UnitInfo&, DecodedUnit decoded, SinkFeed& feed) override {
    RETURN_NOT_OK(feed.Feed(0, decoded.batch));
    return std::unique_ptr<UnitState>();
  }
  Status Assign(const UnitInfo&, UnitState*) override { return Status::OK(); }
  void OnSkipped(size_t, const SkippedRecord&) override {}
};

}  // namespace

StreamRun ReadIntoStream(std::shared_ptr<Source> source, StageOptions options) {
  return [source = std::move(source), options](const ExecContext& context, Sink* sink) -> Status {
    ReadProgram program;
    return RunStage(context, {source.get()}, {{sink, ""}}, &program, options).status();
  };
}

StreamRun OutputIntoStream(std::shared_ptr<const Pipeline> pipeline, std::string step, RunOptions options) {
  return [pipeline = std::move(pipeline), step = std::move(step), options](const ExecContext& context,
                                                                           Sink* sink) -> Status {
    RunOptions run_options = options;
    run_options.outputs[step] = sink;
    return RunPipeline(context, *pipeline, run_options, nullptr).status();
  };
}

}  // namespace recflow::pipeline
