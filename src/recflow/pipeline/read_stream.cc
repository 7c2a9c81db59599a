// ReadIntoStream: a stage program that feeds each decoded unit's batch to the stream's sink unchanged.
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

}  // namespace recflow::pipeline
