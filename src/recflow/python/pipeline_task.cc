// PipelineJob and RunPipelineTask: a one-pass pipeline planned over its read's splits, each split's share run by the
// local runner with RunOptions' task inputs and attempts, the attempts adopted and committed as a convert's.
#include "recflow/python/pipeline_task.h"

#include <algorithm>
#include <utility>

#include "recflow/core/exec_context.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/dataset/dataset_factory.h"
#include "recflow/dataset/split.h"
#include "recflow/dataset/split_source.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/plan.h"
#include "recflow/python/convert_task.h"
#include "recflow/python/native_dataset.h"

namespace recflow::python {

namespace {

// The pipeline at `path`, built with the built-in steps.
Result<pipeline::YamlPipeline> Load(const std::string& path, const PipelineParams& params) {
  ASSIGN_OR_RETURN(pipeline::YamlPipeline loaded, pipeline::LoadPipelineYaml(path, params, pipeline::BuiltinSteps()));
  RETURN_NOT_OK(loaded.pipeline->status());
  return loaded;
}

// The id of the one read of `plan`'s one stage, a read of files; InvalidArgument naming the step
// that needs another pass, or the read that is not of files.
Result<int> OnePassRead(const pipeline::Pipeline& pipeline, const pipeline::Plan& plan) {
  for (const pipeline::Node& node : pipeline.nodes()) {
    const bool grouping = node.kind == pipeline::NodeKind::kGroupByKey ||
                          node.kind == pipeline::NodeKind::kCombinePerKey ||
                          node.kind == pipeline::NodeKind::kCombineGlobally;
    if (grouping || !node.side_inputs.empty()) {
      return Status::InvalidArgument(
          "step '" + node.name + "' (" + std::string(pipeline::NodeKindName(node.kind)) +
          (grouping ? "" : " with side inputs") +
          ") needs a pass of its own: recflow.dask.run runs one-pass pipelines (a read of files, element-wise steps, "
          "writes); groupings and side inputs on Dask are not built yet");
    }
  }
  if (plan.stages.size() != 1 || plan.stages[0].roots.size() != 1) {
    return Status::InvalidArgument("recflow.dask.run runs pipelines of one read (this one has " +
                                   std::to_string(plan.stages.empty() ? 0 : plan.stages[0].roots.size()) +
                                   " in " + std::to_string(plan.stages.size()) + " passes)");
  }
  const pipeline::Node& read = pipeline.node(plan.stages[0].roots[0]);
  if (read.kind != pipeline::NodeKind::kRead || read.files == nullptr) {
    return Status::InvalidArgument("step '" + read.name + "' reads no files: recflow.dask.run cuts a read of files");
  }
  if (!pipeline.side_files().empty()) {
    return Status::InvalidArgument("the pipeline writes the side file " + pipeline.side_files()[0].path +
                                   ", which recflow.dask.run does not write yet");
  }
  return read.id;
}

}  // namespace

Result<std::unique_ptr<PipelineJob>> PipelineJob::Begin(const std::string& path, const PipelineParams& params) {
  std::unique_ptr<PipelineJob> job(new PipelineJob());
  ASSIGN_OR_RETURN(job->loaded_, Load(path, params));
  const pipeline::Pipeline& graph = *job->loaded_.pipeline;
  ASSIGN_OR_RETURN(const pipeline::Plan plan, pipeline::MakePlan(graph));
  ASSIGN_OR_RETURN(job->read_, OnePassRead(graph, plan));
  const pipeline::Stage& stage = plan.stages[0];
  job->steps_.push_back(graph.node(job->read_).name);
  for (int id : stage.steps) job->steps_.push_back(graph.node(id).name);
  const pipeline::InputFiles& files = *graph.node(job->read_).files;
  const std::shared_ptr<FileSystem>& fs = files.options.settings.file_system;
  ASSIGN_OR_RETURN(job->inputs_, dataset::DetectInputs(files.paths, files.options.format, *fs));
  for (const dataset::ResolvedInput& file : job->inputs_.files) {
    ASSIGN_OR_RETURN(const FileInfo info, fs->GetFileInfo(file.path));
    job->input_bytes_ += std::max<int64_t>(info.size, 0);
  }
  for (int id : stage.sinks) {
    const pipeline::Node& write = graph.node(id);
    job->steps_.push_back(write.name);
    ASSIGN_OR_RETURN(auto committer, BeginTaskJob(write.sink, graph.node(write.inputs[0]).schema));
    job->writes_.emplace_back(id, std::move(committer));
  }
  job->metrics_.Reset(graph, plan.stages.size());
  return job;
}

std::string PipelineJob::read_schema() const { return loaded_.pipeline->node(read_).schema->ToString(); }

std::vector<std::string> PipelineJob::DeadLetterFiles() const {
  std::vector<std::string> files;
  for (const pipeline::Node& node : loaded_.pipeline->nodes()) {
    const std::string& path = node.on_error.dead_letter;
    if (node.on_error.mode == pipeline::ErrorPolicy::Mode::kDeadLetter &&
        std::find(files.begin(), files.end(), path) == files.end()) {
      files.push_back(path);
    }
  }
  return files;
}

Result<std::vector<std::string>> PipelineJob::Splits(int64_t target_bytes) const {
  return SplitLines(inputs_, loaded_.pipeline->node(read_).files->options, target_bytes);
}

Result<std::vector<std::tuple<std::string, std::string, std::string>>> PipelineJob::Writes() {
  std::vector<std::tuple<std::string, std::string, std::string>> writes;
  for (auto& [id, committer] : writes_) {
    ASSIGN_OR_RETURN(std::string attempts, committer->AttemptsDir());
    writes.emplace_back(loaded_.pipeline->node(id).name, committer->job_id(), std::move(attempts));
  }
  return writes;
}

Status PipelineJob::Adopt(size_t write, const std::string& attempt_dir) {
  if (write >= writes_.size()) return Status::InvalidArgument("no write number " + std::to_string(write));
  return writes_[write].second->AdoptAttempt(attempt_dir);
}

Status PipelineJob::AddMetrics(const std::vector<int64_t>& counters, const std::vector<int>& step_stages) {
  return metrics_.AddCounters(counters, step_stages);
}

Status PipelineJob::Commit() {
  std::vector<dataset::DatasetCommitter*> order;
  for (auto& [id, committer] : writes_) order.push_back(committer.get());
  std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->resolved_output() < b->resolved_output(); });
  for (dataset::DatasetCommitter* committer : order) RETURN_NOT_OK(committer->Prepare());
  for (dataset::DatasetCommitter* committer : order) RETURN_NOT_OK(committer->Commit());
  return Status::OK();
}

Status PipelineJob::Abort() {
  Status first;
  for (auto& [id, committer] : writes_) {
    const Status st = committer->Abort();
    if (first.ok()) first = st;
  }
  return first;
}

Result<PipelineTaskResult> RunPipelineTask(const std::string& path, const PipelineParams& params,
                                           const std::string& read_schema, const std::vector<std::string>& splits,
                                           std::map<std::string, dataset::TaskAttempt> tasks,
                                           std::map<std::string, std::string> dead_letters, int threads) {
  ASSIGN_OR_RETURN(const pipeline::YamlPipeline loaded, Load(path, params));
  const pipeline::Pipeline& graph = *loaded.pipeline;
  ASSIGN_OR_RETURN(const pipeline::Plan plan, pipeline::MakePlan(graph));
  ASSIGN_OR_RETURN(const int read_id, OnePassRead(graph, plan));
  const pipeline::Node& read = graph.node(read_id);
  if (read.schema->ToString() != read_schema) {
    return Status::DataError("the worker reads step '" + read.name + "' with the schema " + read.schema->ToString() +
                             ", the driver with " + read_schema);
  }
  std::vector<dataset::Split> parsed;
  for (const std::string& line : splits) {
    ASSIGN_OR_RETURN(dataset::Split split, dataset::ParseSplit(line));
    parsed.push_back(std::move(split));
  }
  pipeline::RunOptions options = pipeline::RunOptions::Defaults();
  options.inputs[read.name] = [parsed, schema = read.schema, files = read.files](const std::shared_ptr<FileSystem>& fs) {
    dataset::InputOptions on = files->options;
    on.settings.file_system = fs;
    return dataset::OpenSplits(parsed, schema, on);
  };
  options.tasks = std::move(tasks);
  options.dead_letter_files = std::move(dead_letters);
  ExecContext context = ExecContext::Defaults();
  context.threads = threads;
  pipeline::RunMetrics metrics;
  ASSIGN_OR_RETURN(pipeline::RunResult run, pipeline::RunPipeline(context, graph, options, &metrics));
  return PipelineTaskResult{std::move(run.writes), metrics.Counters(), metrics.StepStages()};
}

}  // namespace recflow::python
