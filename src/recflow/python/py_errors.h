// recflow.Error: how a Status that is not OK reaches Python.
#pragma once

#include <pybind11/pybind11.h>

#include "recflow/core/result.h"
#include "recflow/core/status.h"

namespace recflow::python {

/// Creates the `Error` exception class (a subclass of Exception) in `module`; once, at import.
void RegisterError(pybind11::module_& module);

/// Raises recflow.Error with `status.ToString()` (file, record, byte offset, field and message,
/// as the CLI prints them) unless `status` is OK.
void ThrowIfError(const Status& status);

/// As ThrowIfError, the Error chained to `cause` (an exception, as `raise Error(...) from cause`)
/// unless `cause` is None.
void ThrowIfError(const Status& status, pybind11::handle cause);

/// `run()` called with the GIL released (native work that may wait or take long), its result returned.
template <typename Run>
auto WithoutGil(Run&& run) {
  pybind11::gil_scoped_release release;
  return run();
}

/// The value of `result`, or recflow.Error raised as ThrowIfError does.
template <typename T>
T ValueOrThrow(Result<T> result) {
  if (!result.ok()) ThrowIfError(result.status());
  return std::move(result).ValueUnsafe();
}

}  // namespace recflow::python
