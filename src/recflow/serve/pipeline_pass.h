// PipelinePass: what one connection of `recflow serve` gets — a run of a pipeline (a pipeline file, or the short
// form's read → select → standard_scale) whose chosen step streams into an IpcStreamSink on the connection.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

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

/// How a PipelinePass streams.
struct PassOptions {
  arrow_ipc::IpcStreamSinkOptions stream;  ///< batch size and mode, body compression
  /// What one pass may hold waiting to be sent (ClientMemoryCap); 0: no cap.
  int64_t client_memory_bytes = 0;
};

/// What every connection of a pipeline server shares: the pipeline (built and checked once), the
/// step it streams and how. Immutable, so connections on any number of threads use one.
class PipelinePass {
 public:
  /// Chooses the step (ChooseServedStep); each run executes with `context` (its threads and
  /// file system; the stop token is each run's own, see StopRuns).
  static Result<std::shared_ptr<const PipelinePass>> Make(std::shared_ptr<const pipeline::Pipeline> pipeline,
                                                          const std::string& output, const PassOptions& options,
                                                          ExecContext context);

  /// Runs the pipeline anew — its fitted steps (standard_scale, vocabulary) fit again over the
  /// inputs as they are now — and writes the chosen step's rows to `out` as one IPC stream
  /// (schema, batches of the options' size, end-of-stream). A failed run, a client that goes
  /// away, or a pass over the client memory cap ends the stream without end-of-stream and
  /// returns the error.
  Status Stream(OutputStream* out) const;

  /// Stops the runs in flight (their streams end with a Cancelled error) and makes every later
  /// Stream return Cancelled at once: what a server does when it stops. Each run has a stop
  /// source of its own, so that a run passing its point of no return never makes a later stop
  /// of the others a hard one.
  void StopRuns(int signal = 0) const;

  /// The name of the step streamed.
  const std::string& step() const { return pipeline_->node(step_).name; }

 private:
  PipelinePass(std::shared_ptr<const pipeline::Pipeline> pipeline, int step, const PassOptions& options,
               ExecContext context)
      : pipeline_(std::move(pipeline)), step_(step), options_(options), context_(std::move(context)) {}

  std::shared_ptr<const pipeline::Pipeline> pipeline_;
  int step_;
  PassOptions options_;
  ExecContext context_;
  mutable std::mutex mutex_;
  mutable std::vector<StopSource*> running_;  // the stop sources of the runs in flight
  mutable int stopped_ = -1;                  // the signal StopRuns named; -1 before
};

}  // namespace recflow::serve
