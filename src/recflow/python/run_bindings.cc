// run_pipeline: load (a file, or a builder's text with the Python steps added to the registry), RunPipeline on a
// thread of its own under RunInterruptibly, and the run's metrics, writes and time handed back to Python.
#include "recflow/python/run_bindings.h"

#include <pybind11/stl.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/yaml_pipeline.h"
#include "recflow/python/interruptible.h"
#include "recflow/python/pipeline_source.h"
#include "recflow/python/py_errors.h"
#include "recflow/python/py_steps.h"
#include "recflow/python/write_columns.h"
#include "recflow/python/write_spec.h"

namespace py = pybind11;

namespace recflow::python {

namespace {

/// `status` of a failed run whose function raised an exception on a batch (see PyErrors): the
/// records that batch held, from the record the run's error names (the batch's first) on.
Status WithBatchRange(const Status& status, const PyErrors& errors) {
  const int64_t first = status.context().record;
  const int64_t span = errors.span();
  if (status.ok() || first < 0 || span < 0) return status;
  return status.WithNote(" (in the batch of records " + std::to_string(first) + " to " + std::to_string(first + span) +
                         ")");
}

/// Loads, runs and reports the pipeline; raises recflow.Error (chained to the Python exception a
/// function raised, if any) or KeyboardInterrupt.
py::dict Run(const PipelineSource& source, const std::vector<std::pair<std::string, std::string>>& params,
             const py::list& callables, int threads) {
  const auto start = std::chrono::steady_clock::now();
  std::shared_ptr<PyFunctions> functions;
  const pipeline::StepRegistry registry = StepsWithPython(callables, &functions);
  // Loading samples inputs (and calls each Python function once on an empty batch): interruptible too.
  Result<pipeline::YamlPipeline> loaded = Status::Internal("not loaded");
  pipeline::RunMetrics metrics;
  Result<pipeline::RunResult> result = Status::Internal("not run");
  const Status status = RunInterruptibly([&](const StopToken& stop) -> Status {
    loaded = LoadPipeline(source, params, registry);
    RETURN_NOT_OK(loaded.status());
    ExecContext context = ExecContext::Defaults();
    context.threads = threads;
    context.stop_token = stop;
    result = pipeline::RunPipeline(context, *loaded->pipeline, pipeline::RunOptions::Defaults(), &metrics);
    return result.status();
  });
  ThrowIfError(WithBatchRange(status, *functions->errors), functions->errors->exception());
  py::list writes;
  for (const auto& [name, stats] : result->writes) {
    py::dict write = StatsDict(stats);
    write["step"] = name;
    writes.append(std::move(write));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return py::dict(py::arg("name") = loaded->name, py::arg("metrics") = metrics.Json(), py::arg("writes") = writes,
                  py::arg("stages") = result->stages, py::arg("seconds") = seconds);
}

}  // namespace

void RegisterRun(py::module_& module) {
  module.def(
      "run_pipeline",
      [](const std::string& path, const std::string& text, const std::string& base_dir,
         const std::vector<std::pair<std::string, std::string>>& params, const py::list& callables, int threads) {
        return Run(PipelineSource{path, text, base_dir}, params, callables, threads);
      },
      py::arg("path"), py::arg("text"), py::arg("base_dir"), py::arg("params"), py::arg("callables"),
      py::arg("threads"),
      "Runs a pipeline (the YAML file `path`, or `text` with `callables` for its py_* steps); a dict of its metrics.");
  module.def("step_types", [] {
    const pipeline::StepRegistry registry = pipeline::BuiltinSteps();
    py::list types;
    for (const std::string& name : registry.names()) {
      const pipeline::StepType* type = registry.Find(name);
      types.append(py::make_tuple(name, type->summary, type->shorthand, type->min_inputs, type->max_inputs));
    }
    return types;
  }, "The built-in steps as (name, summary, shorthand, min_inputs, max_inputs).");
}

}  // namespace recflow::python
