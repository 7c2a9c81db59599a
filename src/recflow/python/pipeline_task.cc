// PipelineJob and RunPipelineTask: a pipeline's plan cut at its groupings into stages of tasks, each task's stage run by
// the local runner over its splits or exchange partition, the attempts adopted and committed as a convert's.
#include "recflow/python/pipeline_task.h"

#include <algorithm>
#include <utility>

#include "recflow/core/exec_context.h"
#include "recflow/core/io.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/dataset/dataset_factory.h"
#include "recflow/dataset/io_specs.h"
#include "recflow/dataset/split.h"
#include "recflow/dataset/split_source.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/pipeline/key_partition.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/read_input.h"
#include "recflow/python/convert_task.h"
#include "recflow/python/native_dataset.h"

namespace recflow::python {

namespace {

// The pipeline of `source` built as `options` says and the stages of its distributed run
// (pipeline::DistributedStages); with `names`, their names in the per-step table, and with `numbers` each step's stage
// there.
Result<pipeline::YamlPipeline> Load(const PipelineSource& source, const PipelineParams& params,
                                    const pipeline::StepRegistry& registry, const pipeline::YamlLoadOptions& options,
                                    std::vector<pipeline::Stage>* stages, std::vector<std::string>* names = nullptr,
                                    std::vector<int>* numbers = nullptr) {
  ASSIGN_OR_RETURN(pipeline::YamlPipeline loaded, LoadPipeline(source, params, registry, options));
  ASSIGN_OR_RETURN(const pipeline::Plan plan, pipeline::MakePlan(*loaded.pipeline));
  *stages = pipeline::DistributedStages(*loaded.pipeline, plan, names);
  if (numbers != nullptr) *numbers = pipeline::StepStageNumbers(*loaded.pipeline, plan);
  return loaded;
}

// Every stage's shape, each checked.
Result<std::vector<pipeline::StageShape>> Shapes(const pipeline::Pipeline& graph,
                                                 const std::vector<pipeline::Stage>& stages) {
  std::vector<pipeline::StageShape> shapes;
  for (const pipeline::Stage& stage : stages) {
    ASSIGN_OR_RETURN(pipeline::StageShape shape, pipeline::CheckStage(graph, stage));
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

// What an exchange carries: the input rows of grouping `node`, or (`kept`) the rows of node `node`, a side value.
struct Exchanged {
  int node = -1;
  bool kept = false;
  bool operator==(const Exchanged& other) const { return node == other.node && kept == other.kept; }
};

// The exchanges, numbered in stage order, each stage's groupings before its side values (the driver's and every
// task's numbering).
std::vector<Exchanged> ExchangedRows(const std::vector<pipeline::StageShape>& shapes) {
  std::vector<Exchanged> exchanged;
  for (const pipeline::StageShape& shape : shapes) {
    for (int id : shape.groupings) exchanged.push_back({id, false});
    for (int id : shape.kept) exchanged.push_back({id, true});
  }
  return exchanged;
}

// The number of exchange `wanted` in `exchanged`.
int ExchangeNumber(const std::vector<Exchanged>& exchanged, const Exchanged& wanted) {
  return static_cast<int>(std::find(exchanged.begin(), exchanged.end(), wanted) - exchanged.begin());
}

// How an exchange committed in `dir` is written: Arrow IPC files partitioned by kKeyPartitionColumn, one file
// per task and partition, not synced (the exchange lives as long as its job).
Result<dataset::SinkOptions> ExchangeSinkOptions(const std::string& dir) {
  dataset::OutputSpec spec;
  spec.output = dir;
  spec.format = "feather";
  spec.shards = 1;
  spec.partition_by = {pipeline::kKeyPartitionColumn};
  spec.sync = false;
  return dataset::MakeSinkOptions(spec);
}

// The reader of an exchange's files.
Result<dataset::InputOptions> ExchangeInputOptions() {
  dataset::InputSpec spec;
  spec.from = "arrow";
  return dataset::MakeInputOptions(spec, LocalFileSystem::Instance());
}

// The files of each partition of the exchange committed in `dir`, by partition, each partition's in task order.
Result<std::map<size_t, std::vector<std::string>>> PartitionFiles(const std::string& dir) {
  ASSIGN_OR_RETURN(const std::vector<std::string> names, LocalFileSystem::Instance()->ListFilesRecursively(dir));
  std::map<size_t, std::vector<std::string>> files;
  const std::string prefix = std::string(pipeline::kKeyPartitionColumn) + "=";
  for (const std::string& name : names) {  // sorted: a partition's files in task order
    const size_t slash = name.find('/');
    if (slash == std::string::npos || name.compare(0, prefix.size(), prefix) != 0) continue;  // _SUCCESS, the schema
    if (name[slash + 1] == '.' || name[slash + 1] == '_') continue;
    files[std::stoul(name.substr(prefix.size(), slash - prefix.size()))].push_back(dir + "/" + name);
  }
  return files;
}

// The bytes of an Arrow IPC stream of `schema` and no batch: how a read's schema goes from the driver to the tasks.
Result<std::string> SchemaBytes(const SchemaPtr& schema) {
  BufferOutputStream out;
  ASSIGN_OR_RETURN(auto writer, arrow_ipc::IpcWriter::OpenStream(&out, schema, arrow_ipc::IpcWriteOptions::Defaults()));
  RETURN_NOT_OK(writer->Finish());
  return std::string(out.Finish()->view());
}

// The schemas of `read_schemas` (SchemaBytes by read step name) as a build of the pipeline takes them.
Result<pipeline::YamlLoadOptions> SettledReads(const std::map<std::string, std::string>& read_schemas) {
  pipeline::YamlLoadOptions options;
  for (const auto& [step, bytes] : read_schemas) {
    ASSIGN_OR_RETURN(auto reader, arrow_ipc::IpcStreamReader::Open(Buffer::FromString(bytes),
                                                                   "the schema of step '" + step + "'"));
    options.read_schemas[step] = reader->schema();
  }
  return options;
}

}  // namespace

Result<std::unique_ptr<PipelineJob>> PipelineJob::Begin(const PipelineSource& source, const PipelineParams& params,
                                                        const pipeline::StepRegistry& registry) {
  std::unique_ptr<PipelineJob> job(new PipelineJob());
  std::vector<std::string> stage_names;
  ASSIGN_OR_RETURN(job->loaded_,
                   Load(source, params, registry, {}, &job->cut_stages_, &stage_names, &job->step_numbers_));
  const pipeline::Pipeline& graph = *job->loaded_.pipeline;
  ASSIGN_OR_RETURN(const std::vector<pipeline::StageShape> shapes, Shapes(graph, job->cut_stages_));
  const std::vector<Exchanged> exchanged = ExchangedRows(shapes);
  for (size_t s = 0; s < shapes.size(); ++s) {
    const pipeline::StageShape& shape = shapes[s];
    const pipeline::Stage& stage = job->cut_stages_[s];
    JobStage& out = job->stages_.emplace_back();
    for (int id : shape.roots) out.steps.push_back(graph.node(id).name);
    for (int id : stage.steps) out.steps.push_back(graph.node(id).name);
    for (int id : stage.sinks) out.steps.push_back(graph.node(id).name);
    const pipeline::Node& root = graph.node(shape.roots[0]);
    if (root.kind == pipeline::NodeKind::kRead) {
      if (root.files == nullptr) {
        return Status::InvalidArgument("step '" + root.name + "' reads no files: a distributed run cuts a read of files");
      }
      const pipeline::InputFiles& files = *root.files;
      const std::shared_ptr<FileSystem>& fs = files.options.settings.file_system;
      ASSIGN_OR_RETURN(dataset::ResolvedInputs inputs, dataset::DetectInputs(files.paths, files.options.format, *fs));
      for (const dataset::ResolvedInput& file : inputs.files) {
        ASSIGN_OR_RETURN(const FileInfo info, fs->GetFileInfo(file.path));
        job->input_bytes_ += std::max<int64_t>(info.size, 0);
      }
      job->inputs_[static_cast<int>(s)] = std::move(inputs);
    } else {
      for (int id : shape.roots) {
        out.reads.push_back(ExchangeNumber(exchanged, {id, false}));
        if (graph.node(id).kind == pipeline::NodeKind::kCombineGlobally) out.global_reads.push_back(out.reads.back());
      }
    }
    for (int id : shape.writes) {
      const pipeline::Node& write = graph.node(id);
      ASSIGN_OR_RETURN(auto committer, BeginTaskJob(write.sink, graph.node(write.inputs[0]).schema));
      out.writes.push_back(static_cast<int>(job->writes_.size()));
      job->writes_.emplace_back(id, std::move(committer));
    }
    for (int id : shape.side_reads) out.sides.push_back(ExchangeNumber(exchanged, {id, true}));
    for (int id : shape.groupings) out.exchanges.push_back(ExchangeNumber(exchanged, {id, false}));
    for (int id : shape.kept) out.exchanges.push_back(ExchangeNumber(exchanged, {id, true}));
  }
  if (!exchanged.empty() && job->writes_.empty()) {
    return Status::InvalidArgument("step '" + graph.node(exchanged[0].node).name +
                                   "' groups rows no step writes: a distributed run keeps its exchanges beside a write");
  }
  for (const auto& [id, kept] : exchanged) {
    // The exchanges live in the first write's attempts directory: the job's end (or the next writer's
    // stale-job cleanup) removes them with it.
    ASSIGN_OR_RETURN(const std::string attempts, job->writes_[0].second->AttemptsDir());
    Exchange& exchange = job->exchanges_.emplace_back();
    exchange.node = id;
    exchange.kept = kept;
    exchange.dir = attempts + "/exchange-" + std::to_string(job->exchanges_.size() - 1);
    ASSIGN_OR_RETURN(dataset::SinkOptions options, ExchangeSinkOptions(exchange.dir));
    const pipeline::Node& node = graph.node(id);
    const SchemaPtr rows = kept ? node.schema : pipeline::ExchangeSchema(graph, node);
    ASSIGN_OR_RETURN(const SchemaPtr numbered, pipeline::MakeKeyPartitionFn({}, 1)->OutputSchema(rows));
    ASSIGN_OR_RETURN(exchange.committer, BeginTaskJob(options, numbered));
  }
  job->side_files_ = std::make_unique<pipeline::RunFiles>(graph.file_system(), StopToken());
  for (const pipeline::SideFile& file : graph.side_files()) {
    if (ExchangeNumber(exchanged, {file.node, true}) == static_cast<int>(exchanged.size())) {
      return Status::InvalidArgument("the side file " + file.path + " is made from step '" + graph.node(file.node).name +
                                     "', whose value no stage keeps");
    }
    RETURN_NOT_OK(job->side_files_->Stage(file.path).status());
  }
  job->metrics_.Reset(graph, job->cut_stages_.size());
  for (size_t s = 0; s < stage_names.size(); ++s) job->metrics_.stage(s).name = stage_names[s];
  return job;
}

Result<std::map<std::string, std::string>> PipelineJob::ReadSchemas() const {
  std::map<std::string, std::string> schemas;
  for (const pipeline::Node& node : loaded_.pipeline->nodes()) {
    if (node.kind != pipeline::NodeKind::kRead || node.files == nullptr) continue;
    ASSIGN_OR_RETURN(schemas[node.name], SchemaBytes(node.schema));
  }
  return schemas;
}

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

Result<std::vector<std::string>> PipelineJob::Splits(size_t stage, int64_t target_bytes) const {
  const auto inputs = inputs_.find(static_cast<int>(stage));
  if (inputs == inputs_.end()) return Status::InvalidArgument("stage " + std::to_string(stage) + " reads no files");
  return SplitLines(inputs->second, loaded_.pipeline->node(cut_stages_[stage].roots[0]).files->options, target_bytes);
}

Result<std::vector<TaskOutput>> PipelineJob::Writes() {
  std::vector<TaskOutput> writes;
  for (auto& [id, committer] : writes_) {
    ASSIGN_OR_RETURN(std::string attempts, committer->AttemptsDir());
    writes.emplace_back(loaded_.pipeline->node(id).name, committer->job_id(), std::move(attempts));
  }
  return writes;
}

Result<std::vector<TaskOutput>> PipelineJob::Exchanges() {
  std::vector<TaskOutput> exchanges;
  for (Exchange& exchange : exchanges_) {
    ASSIGN_OR_RETURN(std::string attempts, exchange.committer->AttemptsDir());
    const pipeline::Node& node = loaded_.pipeline->node(exchange.node);
    exchanges.emplace_back(exchange.kept ? pipeline::SideStepName(node) : pipeline::ExchangeStepName(node),
                           exchange.committer->job_id(), std::move(attempts));
  }
  return exchanges;
}

const std::string& PipelineJob::ExchangeDir(size_t exchange) const { return exchanges_.at(exchange).dir; }

Result<std::vector<std::vector<std::string>>> PipelineJob::ExchangeFiles(size_t exchange, int partitions) const {
  if (exchange >= exchanges_.size()) return Status::InvalidArgument("no exchange number " + std::to_string(exchange));
  ASSIGN_OR_RETURN(auto by_partition, PartitionFiles(exchanges_[exchange].dir));
  std::vector<std::vector<std::string>> files(static_cast<size_t>(std::max(partitions, 0)));
  for (auto& [partition, paths] : by_partition) {
    if (partition < files.size()) files[partition] = std::move(paths);
  }
  return files;
}

Result<std::shared_ptr<const pipeline::SideInputValue>> PipelineJob::SideValue(int node) const {
  const auto exchange = std::find_if(exchanges_.begin(), exchanges_.end(),
                                     [&](const Exchange& e) { return e.kept && e.node == node; });
  if (exchange == exchanges_.end()) return Status::Internal("no side value of node " + std::to_string(node));
  ASSIGN_OR_RETURN(const auto by_partition, PartitionFiles(exchange->dir));
  std::vector<std::string> paths;
  for (const auto& [partition, files] : by_partition) paths.insert(paths.end(), files.begin(), files.end());
  auto value = std::make_shared<pipeline::SideInputValue>();
  value->schema = loaded_.pipeline->node(node).schema;
  if (paths.empty()) return value;
  ASSIGN_OR_RETURN(dataset::InputOptions options, ExchangeInputOptions());
  ASSIGN_OR_RETURN(auto source, pipeline::InputsFactory(paths, std::move(options))(LocalFileSystem::Instance()));
  for (;;) {
    ASSIGN_OR_RETURN(auto unit, source->NextUnit());
    if (unit == nullptr) return value;
    ASSIGN_OR_RETURN(DecodedUnit decoded, unit->Decode());
    value->batches.push_back(std::move(decoded.batch));
  }
}

Status PipelineJob::Adopt(size_t write, const std::string& attempt_dir) {
  if (write >= writes_.size()) return Status::InvalidArgument("no write number " + std::to_string(write));
  return writes_[write].second->AdoptAttempt(attempt_dir);
}

Status PipelineJob::AdoptExchange(size_t exchange, const std::string& attempt_dir) {
  if (exchange >= exchanges_.size()) return Status::InvalidArgument("no exchange number " + std::to_string(exchange));
  return exchanges_[exchange].committer->AdoptAttempt(attempt_dir);
}

Status PipelineJob::CommitExchange(size_t exchange) {
  if (exchange >= exchanges_.size()) return Status::InvalidArgument("no exchange number " + std::to_string(exchange));
  RETURN_NOT_OK(exchanges_[exchange].committer->Prepare());
  return exchanges_[exchange].committer->Commit();
}

Status PipelineJob::AddMetrics(const std::vector<int64_t>& counters) {
  return metrics_.AddCounters(counters, step_numbers_);
}

Status PipelineJob::Commit() {
  // The side values live in the first write's attempts directory, which preparing it moves away: read them first.
  const pipeline::Pipeline& graph = *loaded_.pipeline;
  for (const pipeline::SideFile& file : graph.side_files()) {
    ASSIGN_OR_RETURN(const auto value, SideValue(file.node));
    RETURN_NOT_OK(graph.StepStatus(graph.node(file.node).name,
                                   file.write(*value, *graph.file_system(), pipeline::StagedPath(file.path))));
  }
  std::vector<dataset::DatasetCommitter*> order;
  for (auto& [id, committer] : writes_) order.push_back(committer.get());
  std::sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->resolved_output() < b->resolved_output(); });
  for (dataset::DatasetCommitter* committer : order) RETURN_NOT_OK(committer->Prepare());
  for (dataset::DatasetCommitter* committer : order) RETURN_NOT_OK(committer->Commit());
  return side_files_->Commit();
}

Status PipelineJob::Abort() {
  // The exchanges first: they live in the first write's attempts directory, which its Abort removes.
  for (Exchange& exchange : exchanges_) (void)exchange.committer->Abort();
  if (side_files_ != nullptr) side_files_->Abort();
  Status first;
  for (auto& [id, committer] : writes_) {
    const Status st = committer->Abort();
    if (first.ok()) first = st;
  }
  return first;
}

Result<PipelineTaskResult> RunPipelineTask(const PipelineSource& source, const PipelineParams& params,
                                           const pipeline::StepRegistry& registry, const PipelineTaskInput& input,
                                           std::map<std::string, dataset::TaskAttempt> tasks,
                                           std::map<std::string, std::string> dead_letters, int threads) {
  std::vector<pipeline::Stage> stages;
  ASSIGN_OR_RETURN(const pipeline::YamlLoadOptions settled, SettledReads(input.read_schemas));
  ASSIGN_OR_RETURN(const pipeline::YamlPipeline loaded, Load(source, params, registry, settled, &stages));
  const pipeline::Pipeline& graph = *loaded.pipeline;
  ASSIGN_OR_RETURN(const std::vector<pipeline::StageShape> shapes, Shapes(graph, stages));
  if (input.stage >= shapes.size()) {
    return Status::InvalidArgument("the pipeline has " + std::to_string(shapes.size()) + " stages, not " +
                                   std::to_string(input.stage + 1));
  }
  const pipeline::StageShape& shape = shapes[input.stage];
  const pipeline::Node& root = graph.node(shape.roots[0]);
  const std::vector<Exchanged> exchanged = ExchangedRows(shapes);
  pipeline::StageCutOptions cut_options;
  if (root.kind == pipeline::NodeKind::kRead) {
    const auto driver = settled.read_schemas.find(root.name);
    if (driver == settled.read_schemas.end() || !root.schema->Equals(*driver->second, true)) {
      return Status::DataError("the worker reads step '" + root.name + "' with the schema " + root.schema->ToString() +
                               ", the driver with " +
                               (driver == settled.read_schemas.end() ? "none" : driver->second->ToString()));
    }
    std::vector<dataset::Split> parsed;
    for (const std::string& line : input.splits) {
      ASSIGN_OR_RETURN(dataset::Split split, dataset::ParseSplit(line));
      parsed.push_back(std::move(split));
    }
    cut_options.input = [parsed, schema = root.schema, files = root.files](const std::shared_ptr<FileSystem>& fs) {
      dataset::InputOptions on = files->options;
      on.settings.file_system = fs;
      return dataset::OpenSplits(parsed, schema, on);
    };
  }
  auto exchange_of = [&](int number) -> Result<Exchanged> {
    if (number < 0 || static_cast<size_t>(number) >= exchanged.size()) {
      return Status::InvalidArgument("no exchange number " + std::to_string(number));
    }
    return exchanged[static_cast<size_t>(number)];
  };
  for (const auto& [number, files] : input.exchange_files) {
    ASSIGN_OR_RETURN(const Exchanged rows, exchange_of(number));
    // null: an empty partition, or a side value without rows
    pipeline::SourceFactory& input = (rows.kept ? cut_options.sides : cut_options.grouped)[rows.node];
    if (files.empty()) continue;
    ASSIGN_OR_RETURN(dataset::InputOptions options, ExchangeInputOptions());
    input = pipeline::InputsFactory(files, std::move(options));
  }
  for (const auto& [number, dir] : input.exchange_dirs) {
    ASSIGN_OR_RETURN(const Exchanged rows, exchange_of(number));
    ASSIGN_OR_RETURN((rows.kept ? cut_options.kept : cut_options.exchanges)[rows.node], ExchangeSinkOptions(dir));
  }
  cut_options.partitions = input.partitions;
  ASSIGN_OR_RETURN(const pipeline::StageCut cut,
                   pipeline::CutStage(graph, stages[input.stage], shape, cut_options));
  pipeline::RunOptions options = pipeline::RunOptions::Defaults();
  options.tasks = std::move(tasks);
  options.dead_letter_files = std::move(dead_letters);
  ExecContext context = ExecContext::Defaults();
  context.threads = threads;
  pipeline::RunMetrics part;
  ASSIGN_OR_RETURN(pipeline::RunResult run, pipeline::RunPipeline(context, *cut.pipeline, options, &part));
  pipeline::RunMetrics whole;
  whole.Reset(graph, stages.size());
  whole.AddCut(part, cut.origin, cut.counted_stage, input.stage);
  return PipelineTaskResult{std::move(run.writes), whole.Counters()};
}

}  // namespace recflow::python
