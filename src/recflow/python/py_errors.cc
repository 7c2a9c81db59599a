// recflow.Error, created once per interpreter, raised from a Status.
#include "recflow/python/py_errors.h"

namespace py = pybind11;

namespace recflow::python {

namespace {

/// The exception class RegisterError created (a new reference kept for the process's life).
PyObject* error_class = nullptr;

}  // namespace

void RegisterError(py::module_& module) {
  static py::exception<std::exception> error(module, "Error", PyExc_Exception);
  error.doc() = "A recflow read or run failed; the message names the file, record and byte offset.";
  error_class = error.ptr();
}

void ThrowIfError(const Status& status) {
  if (status.ok()) return;
  PyErr_SetString(error_class, status.ToString().c_str());
  throw py::error_already_set();
}

void ThrowIfError(const Status& status, py::handle cause) {
  if (status.ok()) return;
  if (cause.is_none()) ThrowIfError(status);
  const py::object error = py::reinterpret_borrow<py::object>(error_class)(status.ToString());
  PyException_SetCause(error.ptr(), cause.inc_ref().ptr());    // steals the reference
  PyException_SetContext(error.ptr(), cause.inc_ref().ptr());  // steals the reference
  PyErr_SetObject(error_class, error.ptr());
  throw py::error_already_set();
}

}  // namespace recflow::python
