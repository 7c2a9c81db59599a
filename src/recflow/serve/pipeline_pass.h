// PipelinePass: what one connection of `recflow serve PIPELINE.yaml` gets — a run of the pipeline whose chosen step
// streams into an IpcStreamSink on the connection.
#pragma once

#include <memory>
#include <string>

#include "recflow/core/exec_context.h"
#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/ipc_stream_sink.h"
#include "recflow/pipeline/pipeline.h"

namespace recflow::serve {

/// The step a served pipeline streams: `requested` when not empty, else the pipeline's one step
/// whose rows no other step reads. InvalidArgument listing the candidates when `requested` names
/// no step with rows or when several steps are unread; also for a pipeline that writes anything
/// (a write step, a side file, a dead-letter file), which every connection would write again.
Result<int> ChooseServedStep(const pipeline::Pipeline& pipeline, const std::string& requested);

/// What every connection of a pipeline server shares: the pipeline (built and checked once), the
/// step it streams and how. Immutable, so connections on any number of threads use one.
class PipelinePass {
 public:
  /// Chooses the step (ChooseServedStep); `context` is what each run executes with (threads,
  /// the stop token that cancels the runs in flight).
  static Result<std::shared_ptr<const PipelinePass>> Make(std::shared_ptr<const pipeline::Pipeline> pipeline,
                                                          const std::string& output,
                                                          const arrow_ipc::IpcStreamSinkOptions& stream,
                                                          ExecContext context);

  /// Runs the pipeline anew — its fitted steps (standard_scale, vocabulary) fit again over the
  /// inputs as they are now — and writes the chosen step's rows to `out` as one IPC stream
  /// (schema, batches of the options' size, end-of-stream). A failed run, or a client that
  /// goes away, ends the stream without end-of-stream and returns the error.
  Status Stream(OutputStream* out) const;

  /// The name of the step streamed.
  const std::string& step() const { return pipeline_->node(step_).name; }

 private:
  PipelinePass(std::shared_ptr<const pipeline::Pipeline> pipeline, int step,
               const arrow_ipc::IpcStreamSinkOptions& stream, ExecContext context)
      : pipeline_(std::move(pipeline)), step_(step), stream_(stream), context_(std::move(context)) {}

  std::shared_ptr<const pipeline::Pipeline> pipeline_;
  int step_;
  arrow_ipc::IpcStreamSinkOptions stream_;
  ExecContext context_;
};

}  // namespace recflow::serve
