// recflow._recflow's side of recflow.dask: the driver's ConvertJob and the workers' convert_task, bound into the module.
#pragma once

#include <pybind11/pybind11.h>

namespace recflow::python {

/// Adds to `module` the `ConvertJob` class (a distributed conversion's commit job: where attempts
/// write, adopting the first finished attempt of each task, the one commit) and `convert_task`
/// (one task attempt's native conversion of its splits, the GIL released).
void RegisterDask(pybind11::module_& module);

}  // namespace recflow::python
