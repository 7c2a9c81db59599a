// ExportRunStream: the run's thread, its stop source and its CStreamSink, owned by the exported stream's source.
#include "recflow/formats/c_stream_run.h"

#include <exception>
#include <memory>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

#include "recflow/columnar/c_stream.h"
#include "recflow/core/stop_token.h"

namespace recflow {

namespace {

/// A run in progress and the sink it feeds. Destroying it (when the exported stream is released
/// or ends) stops the run and joins its thread.
class RunningStream {
 public:
  RunningStream(SchemaPtr schema, CStreamOptions options, StopSource stop)
      : sink_(std::move(schema), std::move(options)), stop_(std::move(stop)) {}
  ~RunningStream() {
    stop_.RequestStop();
    sink_.Cancel();
    if (thread_.joinable()) thread_.join();
  }
  RunningStream(const RunningStream&) = delete;
  RunningStream& operator=(const RunningStream&) = delete;

  /// Starts `run` under `context` (given this stream's stop token) on a new thread.
  Status Start(ExecContext context, StreamRun run) {
    context.stop_token = stop_.token();
    try {
      thread_ = std::thread([this, context = std::move(context), run = std::move(run)]() mutable {
        Status status = Guarded(run, context);
        run = nullptr;  // what the run captured (its sources) goes on this thread, before the end shows
        if (!status.ok()) (void)sink_.Abort();
        sink_.Close(std::move(status));
      });
    } catch (const std::system_error& e) {
      return Status::IOError(std::string("cannot start the C stream's thread: ") + e.what());
    }
    return Status::OK();
  }

  CStreamSink& sink() { return sink_; }

 private:
  /// run(context, sink), with an exception (which must not end the process from this thread)
  /// turned into an error.
  Status Guarded(const StreamRun& run, const ExecContext& context) {
    try {
      return run(context, &sink_);
    } catch (const std::bad_alloc&) {
      return Status::OutOfMemory("the C stream's run ran out of memory");
    } catch (const std::exception& e) {
      return Status::Internal(std::string("the C stream's run threw: ") + e.what());
    }
  }

  CStreamSink sink_;
  StopSource stop_;
  std::thread thread_;
};

}  // namespace

Status ExportRunStream(const ExecContext& context, SchemaPtr schema, StreamRun run, CStreamOptions options,
                       ArrowArrayStream* out, StopSource stop) {
  RETURN_NOT_OK(context.Validate());
  RETURN_NOT_OK(options.Validate());
  if (schema == nullptr || run == nullptr || out == nullptr) {
    return Status::InvalidArgument("a C stream needs a schema, a run and a stream to fill");
  }
  auto running = std::make_shared<RunningStream>(schema, std::move(options), std::move(stop));
  RETURN_NOT_OK(running->Start(context, std::move(run)));
  // The stream's source owns the run: releasing the stream, or its end, destroys it.
  return c_data::ExportBatchStream(std::move(schema), [running] { return running->sink().Pop(); }, out);
}

}  // namespace recflow
