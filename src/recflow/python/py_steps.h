// AddPythonSteps: the pipeline steps `py_map`, `py_filter` and `py_flat_map` — a PyDoFn over one of the callables a
// recflow.Pipeline handed over with its steps — added to a copy of the step registry for one run.
#pragma once

#include <memory>
#include <vector>

#include "recflow/pipeline/step_registry.h"
#include "recflow/python/py_do_fn.h"

namespace recflow::python {

/// The callables of one pipeline (KeepAlive references), by index, and the exceptions they raise.
struct PyFunctions {
  std::vector<std::shared_ptr<const void>> callables;
  std::shared_ptr<PyErrors> errors = std::make_shared<PyErrors>();
};

/// Adds py_map, py_filter and py_flat_map to `registry`. Their arguments: `fn` (an index into
/// `functions`), `label` (the function's name in messages) and, for py_map and py_flat_map,
/// `schema` ({column: type name}, ops::ParseTypeName), the output schema when given.
void AddPythonSteps(pipeline::StepRegistry* registry, std::shared_ptr<const PyFunctions> functions);

/// The built-in steps and the Python steps over `callables` (a recflow.Pipeline's functions, by
/// index; held by KeepAlive references in `*functions`, which also collects their exceptions): what
/// a builder's pipeline is loaded with, in recflow.Pipeline.run and in recflow.dask.run's job and tasks.
pipeline::StepRegistry StepsWithPython(const pybind11::list& callables, std::shared_ptr<PyFunctions>* functions);

}  // namespace recflow::python
