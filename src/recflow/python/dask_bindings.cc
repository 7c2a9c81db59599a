// ConvertJob, PipelineJob, convert_task and pipeline_task of recflow._recflow, with the GIL released.
#include "recflow/python/dask_bindings.h"

#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "recflow/python/convert_task.h"
#include "recflow/python/native_dataset.h"
#include "recflow/python/pipeline_task.h"
#include "recflow/python/py_errors.h"
#include "recflow/python/py_steps.h"
#include "recflow/python/write_spec.h"

namespace py = pybind11;

namespace recflow::python {

namespace {

/// The driver's commit job of one distributed conversion.
class ConvertJob {
 public:
  explicit ConvertJob(std::unique_ptr<dataset::DatasetCommitter> committer) : committer_(std::move(committer)) {}

  /// The job's id (task attempts name their Spark shards and append tags with it).
  const std::string& job_id() const { return committer_->job_id(); }
  /// Where task attempts write their directories.
  std::string AttemptsDir() { return ValueOrThrow(WithoutGil([&] { return committer_->AttemptsDir(); })); }
  /// Adopts one finished attempt's files into the new dataset.
  void Adopt(const std::string& attempt_dir) {
    ThrowIfError(WithoutGil([&] { return committer_->AdoptAttempt(attempt_dir); }));
  }
  /// Completes the new dataset and swaps it in.
  void Commit() { ThrowIfError(WithoutGil([&] { return committer_->Commit(); })); }
  /// Abandons the job: the output stays as it was.
  void Abort() { ThrowIfError(WithoutGil([&] { return committer_->Abort(); })); }

 private:
  std::unique_ptr<dataset::DatasetCommitter> committer_;
};

}  // namespace

void RegisterDask(py::module_& module) {
  py::class_<ConvertJob>(module, "ConvertJob", "The commit job of a distributed conversion (recflow.dask).")
      .def(py::init([](const NativeDataset& dataset, const py::tuple& spec) {
             const dataset::OutputSpec output = OutputSpecOf(spec);
             return std::make_unique<ConvertJob>(
                 ValueOrThrow(WithoutGil([&] { return BeginConvertJob(output, dataset.schema()); })));
           }),
           py::arg("dataset"), py::arg("spec"))
      .def_property_readonly("job_id", &ConvertJob::job_id)
      .def_property_readonly("attempts_dir", &ConvertJob::AttemptsDir)
      .def("adopt", &ConvertJob::Adopt, py::arg("attempt_dir"), "Adopts one finished task attempt's files.")
      .def("commit", &ConvertJob::Commit, "Completes the dataset (_SUCCESS, schema file) and swaps it in.")
      .def("abort", &ConvertJob::Abort, "Abandons the job; the output stays as it was.");
  py::class_<PipelineJob>(module, "PipelineJob", "A pipeline's job on a Dask cluster (recflow.dask.run).")
      .def(py::init([](const std::string& path, const std::string& text, const std::string& base_dir,
                       const PipelineParams& params, const py::list& callables) {
             std::shared_ptr<PyFunctions> functions;
             const pipeline::StepRegistry registry = StepsWithPython(callables, &functions);
             Result<std::unique_ptr<PipelineJob>> job =
                 WithoutGil([&] { return PipelineJob::Begin(PipelineSource{path, text, base_dir}, params, registry); });
             if (!job.ok()) ThrowIfError(job.status(), functions->errors->exception());
             return std::move(job).ValueUnsafe();
           }),
           py::arg("path"), py::arg("text"), py::arg("base_dir"), py::arg("params"), py::arg("callables"),
           "The job of the YAML file `path`, or of `text` (a recflow.Pipeline's, its py_* steps over `callables`).")
      .def_property_readonly("name", &PipelineJob::name)
      .def_property_readonly("stages", [](const PipelineJob& job) {
             py::list stages;
             for (const JobStage& stage : job.stages()) {
               stages.append(py::make_tuple(stage.steps, stage.reads, stage.global_reads, stage.sides, stage.writes,
                                            stage.exchanges));
             }
             return stages;
           }, "Per stage, in the order they run: (its steps, the exchanges it reads, those of combine_globally "
              "steps, the side values every task reads, its writes' numbers, "
              "its exchanges' numbers).")
      .def("read_schemas", [](const PipelineJob& job) {
             py::dict schemas;
             for (const auto& [step, bytes] : ValueOrThrow(job.ReadSchemas())) {
               schemas[py::str(step)] = py::bytes(bytes);
             }
             return schemas;
           }, "Every read's schema, settled once for the tasks: {read step: Arrow IPC stream bytes}.")
      .def_property_readonly("input_bytes", &PipelineJob::input_bytes)
      .def_property_readonly("dead_letter_files", &PipelineJob::DeadLetterFiles)
      .def("splits", [](const PipelineJob& job, size_t stage, int64_t target) {
             return ValueOrThrow(job.Splits(stage, target));
           }, py::arg("stage"), py::arg("target_bytes"), "The stage's read's files cut into splits (JSON lines).")
      .def("writes", [](PipelineJob& job) { return ValueOrThrow(WithoutGil([&] { return job.Writes(); })); },
           "Per write step: (name, job id, attempts directory).")
      .def("exchanges", [](PipelineJob& job) { return ValueOrThrow(WithoutGil([&] { return job.Exchanges(); })); },
           "Per exchange: (the write step feeding it, job id, attempts directory).")
      .def("exchange_dir", &PipelineJob::ExchangeDir, py::arg("exchange"),
           "Where the exchange is committed (partition K's files in recflow_partition=K/).")
      .def("exchange_files", [](const PipelineJob& job, size_t exchange, int partitions) {
             return ValueOrThrow(WithoutGil([&] { return job.ExchangeFiles(exchange, partitions); }));
           }, py::arg("exchange"), py::arg("partitions"),
           "The files of each partition of the committed exchange, in task order.")
      .def("adopt", [](PipelineJob& job, size_t write, const std::string& dir) {
             ThrowIfError(WithoutGil([&] { return job.Adopt(write, dir); }));
           }, py::arg("write"), py::arg("attempt_dir"), "Adopts a finished attempt of write number `write`.")
      .def("adopt_exchange", [](PipelineJob& job, size_t exchange, const std::string& dir) {
             ThrowIfError(WithoutGil([&] { return job.AdoptExchange(exchange, dir); }));
           }, py::arg("exchange"), py::arg("attempt_dir"), "Adopts a finished attempt of exchange number `exchange`.")
      .def("commit_exchange", [](PipelineJob& job, size_t exchange) {
             ThrowIfError(WithoutGil([&] { return job.CommitExchange(exchange); }));
           }, py::arg("exchange"), "Commits the exchange once every task writing it was adopted.")
      .def("add_metrics", [](PipelineJob& job, const std::vector<int64_t>& counters) {
             ThrowIfError(job.AddMetrics(counters));
           }, py::arg("counters"), "Adds one task's metrics.")
      .def_property_readonly("metrics_json", [](const PipelineJob& job) { return job.metrics().Json(); })
      .def_property_readonly("metrics_table", [](const PipelineJob& job) { return job.metrics().Table(); })
      .def("commit", [](PipelineJob& job) { ThrowIfError(WithoutGil([&] { return job.Commit(); })); },
           "Prepares every output, then swaps each in.")
      .def("abort", [](PipelineJob& job) { ThrowIfError(WithoutGil([&] { return job.Abort(); })); },
           "Abandons the job; the outputs stay as they were.");
  module.def(
      "pipeline_task",
      [](const std::string& path, const std::string& text, const std::string& base_dir, const PipelineParams& params,
         const py::list& callables, size_t stage, const std::map<std::string, std::string>& read_schemas,
         const std::vector<std::string>& splits, const std::map<int, std::vector<std::string>>& exchange_files,
         int partitions,
         const std::map<int, std::string>& exchange_dirs, const std::vector<TaskOutput>& outputs, int64_t index,
         int64_t count, const std::map<std::string, std::string>& dead_letters, int threads) {
        PipelineTaskInput input;
        input.stage = stage;
        input.read_schemas = read_schemas;
        input.splits = splits;
        input.exchange_files = exchange_files;
        input.partitions = partitions;
        input.exchange_dirs = exchange_dirs;
        std::map<std::string, dataset::TaskAttempt> tasks;
        for (const auto& [name, job_id, dir] : outputs) {
          dataset::TaskAttempt& task = tasks[name];
          task.dir = dir;
          task.job_id = job_id;
          task.index = index;
          task.count = count;
        }
        std::shared_ptr<PyFunctions> functions;
        const pipeline::StepRegistry registry = StepsWithPython(callables, &functions);
        Result<PipelineTaskResult> run = WithoutGil([&] {
          return RunPipelineTask(PipelineSource{path, text, base_dir}, params, registry, input, std::move(tasks),
                                 dead_letters, threads);
        });
        if (!run.ok()) ThrowIfError(run.status(), functions->errors->exception());
        PipelineTaskResult result = std::move(run).ValueUnsafe();
        py::dict writes_out;
        for (const auto& [name, stats] : result.writes) writes_out[py::str(name)] = StatsDict(stats);
        return py::make_tuple(writes_out, result.counters);
      },
      py::arg("path"), py::arg("text"), py::arg("base_dir"), py::arg("params"), py::arg("callables"), py::arg("stage"),
      py::arg("read_schemas"), py::arg("splits"),
      py::arg("exchange_files"), py::arg("partitions"), py::arg("exchange_dirs"), py::arg("outputs"),
      py::arg("index"), py::arg("count"), py::arg("dead_letters"), py::arg("threads"),
      "Runs task `index` of `count` of stage `stage` of the pipeline at `path` (or of `text` over `callables`), its "
      "reads of the schemas `read_schemas` (PipelineJob.read_schemas), over `splits` (a read stage) or "
      "`exchange_files` (an exchange stage: its partition's files of each exchange it reads), each write and exchange (name, job id, attempt directory) into its "
      "attempt, exchanges in `partitions` partitions; returns ({write: stats}, counters).");
  module.def(
      "convert_task",
      [](const NativeDataset& dataset, const std::vector<std::string>& splits, const py::tuple& spec,
         const std::string& attempt_dir, const std::string& job_id, int64_t index, int64_t count, int threads) {
        const dataset::OutputSpec output = OutputSpecOf(spec);
        dataset::TaskAttempt task;
        task.dir = attempt_dir;
        task.job_id = job_id;
        task.index = index;
        task.count = count;
        Result<dataset::SinkStats> stats = WithoutGil([&]() -> Result<dataset::SinkStats> {
          ASSIGN_OR_RETURN(std::unique_ptr<Source> source, dataset.OpenSplits(splits));
          return RunConvertTask(std::move(source), output, std::move(task), threads);
        });
        return StatsDict(ValueOrThrow(std::move(stats)));
      },
      py::arg("dataset"), py::arg("splits"), py::arg("spec"), py::arg("attempt_dir"), py::arg("job_id"),
      py::arg("index"), py::arg("count"), py::arg("threads"),
      "Converts `splits` of `dataset` into the attempt directory of task `index` of `count`; returns its stats.");
}

}  // namespace recflow::python
