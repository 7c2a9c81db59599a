// BeginConvertJob and RunConvertTask: the commit job begun as a convert's sink begins it; a task as a convert's run.
#include "recflow/python/convert_task.h"

#include <utility>

#include "recflow/core/exec_context.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/pipeline/local_runner.h"

namespace recflow::python {

Result<std::unique_ptr<pipeline::Pipeline>> ReadWritePipeline(std::unique_ptr<Source> source,
                                                              dataset::SinkOptions options,
                                                              std::shared_ptr<FileSystem> file_system) {
  auto pipeline = std::make_unique<pipeline::Pipeline>();
  pipeline->set_steps_named_in_errors(false);
  pipeline->set_file_system(std::move(file_system));
  const pipeline::PCollection rows = pipeline->ReadOpened("read", std::move(source), nullptr);
  pipeline->Write("write", rows, std::move(options));
  RETURN_NOT_OK(pipeline->status());
  return pipeline;
}

Result<std::unique_ptr<dataset::DatasetCommitter>> BeginTaskJob(const dataset::SinkOptions& options,
                                                                 const SchemaPtr& schema) {
  RETURN_NOT_OK(dataset::MakeDatasetLayout(options, schema).status());
  return dataset::BeginDatasetJob(options, *schema, LocalFileSystem::Instance());
}

Result<std::unique_ptr<dataset::DatasetCommitter>> BeginConvertJob(const dataset::OutputSpec& spec,
                                                                    const SchemaPtr& schema) {
  ASSIGN_OR_RETURN(dataset::SinkOptions options, dataset::MakeSinkOptions(spec));
  return BeginTaskJob(options, schema);
}

Result<dataset::SinkStats> RunConvertTask(std::unique_ptr<Source> source, const dataset::OutputSpec& spec,
                                          dataset::TaskAttempt task, int threads) {
  ASSIGN_OR_RETURN(dataset::SinkOptions options, dataset::MakeSinkOptions(spec));
  options.task = std::move(task);
  ExecContext context = ExecContext::Defaults();
  context.threads = threads;
  RETURN_NOT_OK(context.Validate());
  // A split is read once: nothing reopens it.
  ASSIGN_OR_RETURN(std::unique_ptr<pipeline::Pipeline> pipeline,
                   ReadWritePipeline(std::move(source), std::move(options), context.file_system));
  pipeline::RunMetrics metrics;
  ASSIGN_OR_RETURN(pipeline::RunResult run,
                   pipeline::RunPipeline(context, *pipeline, pipeline::RunOptions::Defaults(), &metrics));
  return run.writes.at(0).second;
}

}  // namespace recflow::python
