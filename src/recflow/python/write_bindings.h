// recflow._recflow.Writer: the native side of recflow.write, bound into the extension module.
#pragma once

#include <pybind11/pybind11.h>

namespace recflow::python {

/// Adds the `Writer` class to `module`: one dataset written from pushed batches (WriteJob), batches
/// imported by ImportBatch, the GIL released while the engine takes them and while it finishes.
void RegisterWrite(pybind11::module_& module);

}  // namespace recflow::python
