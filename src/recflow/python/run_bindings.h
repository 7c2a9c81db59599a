// recflow._recflow.run_pipeline and step_types: what recflow.run and recflow.Pipeline call.
#pragma once

#include <pybind11/pybind11.h>

namespace recflow::python {

/// Adds `run_pipeline` (a YAML pipeline file, or the text a recflow.Pipeline wrote with its Python
/// functions, run by pipeline::RunPipeline with Ctrl-C answered through the stop token) and
/// `step_types` (the registered steps) to `module`.
void RegisterRun(pybind11::module_& module);

}  // namespace recflow::python
