// WriteJob: the read → write pipeline over a queue-fed callback source, run by RunPipeline on the job's own thread.
#include "recflow/python/write_job.h"

#include <utility>

#include "recflow/core/exec_context.h"
#include "recflow/formats/batch_source.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/python/convert_task.h"

namespace recflow::python {

Result<std::unique_ptr<WriteJob>> WriteJob::Start(const dataset::OutputSpec& spec, SchemaPtr schema, int threads) {
  ASSIGN_OR_RETURN(dataset::SinkOptions sink_options, dataset::MakeSinkOptions(spec));
  RETURN_NOT_OK(dataset::MakeDatasetLayout(sink_options, schema).status());
  ExecContext context = ExecContext::Defaults();
  context.threads = threads;
  RETURN_NOT_OK(context.Validate());

  std::unique_ptr<WriteJob> job(new WriteJob(schema));
  pipeline::BatchQueue* queue = &job->queue_;
  ASSIGN_OR_RETURN(std::unique_ptr<pipeline::Pipeline> pipeline,
                   ReadWritePipeline(MakeCallbackSource("python batches", schema, [queue] { return queue->Pop(); }),
                                     std::move(sink_options), context.file_system));

  context.stop_token = job->stop_.token();
  job->run_ = std::thread([job = job.get(), pipeline = std::move(pipeline), context]() mutable {
    pipeline::RunMetrics metrics;
    Result<pipeline::RunResult> run = pipeline::RunPipeline(context, *pipeline, pipeline::RunOptions::Defaults(),
                                                            &metrics);
    pipeline.reset();  // the source and whatever it still held of the caller's batches
    if (run.ok()) {
      job->result_ = run->writes.at(0).second;
    } else {
      job->result_ = run.status();
    }
    // A producer waiting for room learns the run ended.
    job->queue_.Abandon(job->result_.ok() ? Status::OK() : job->result_.status());
  });
  return job;
}

WriteJob::~WriteJob() { Abort(Status::Cancelled("the write was abandoned before it finished")); }

bool WriteJob::Push(const std::shared_ptr<RecordBatch>& batch) {
  if (batch->num_rows() <= kSliceRows) return queue_.Push(batch);
  for (int64_t offset = 0; offset < batch->num_rows(); offset += kSliceRows) {
    if (!queue_.Push(batch->Slice(offset, kSliceRows))) return false;
  }
  return true;
}

Result<dataset::SinkStats> WriteJob::Finish() {
  queue_.Close(Status::OK());
  return Join();
}

void WriteJob::Abort(const Status& reason) {
  if (joined_) return;
  queue_.Abandon(reason);
  stop_.RequestStop();
  (void)Join();
}

Result<dataset::SinkStats> WriteJob::Join() {
  if (!joined_) {
    run_.join();
    joined_ = true;
  }
  return result_;
}

}  // namespace recflow::python
