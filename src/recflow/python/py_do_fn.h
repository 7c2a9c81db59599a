// PyDoFn: a Python function over batches (dicts of NumPy columns) as a DoFn of the native pipeline — map, filter or
// flat_map — run under the GIL on the engine's threads; the first exception a function raised is kept for the caller.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "recflow/pipeline/do_fn.h"

namespace recflow::python {

/// What a Python function returns for a batch.
enum class PyFnKind : uint8_t {
  kMap,      ///< a batch of the same rows (a dict of columns)
  kFilter,   ///< a boolean mask: the rows to keep
  kFlatMap,  ///< an iterable of batches (any number of rows)
};

/// The first Python exception any PyDoFn of a run raised, for the caller to chain to the run's
/// error, with the span of the batch it was raised on. Thread-safe.
class PyErrors {
 public:
  /// Keeps the exception being handled (`error`, under the GIL) unless one was kept before;
  /// `span` is its batch's last record minus its first (-1: no batch, the call on an empty one).
  void Keep(pybind11::error_already_set& error, int64_t span);
  /// The kept exception (None when none was kept); under the GIL.
  pybind11::object exception() const;
  /// The span Keep was given with the kept exception.
  int64_t span() const;

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const void> exception_;  // a PyObject* held by KeepAlive
  int64_t span_ = -1;
};

/// Runs a Python callable on every batch: under the GIL, the batch as ToNumpy gives it (fixed-width
/// columns viewing the Arrow buffers), the result converted back by FromNumpy (recflow.write's
/// conversion: arrays of Arrow's layout kept without a copy). The output schema is `declared` when given, else the
/// result of the function on an empty batch of the input schema (InferField of each column; a
/// flat_map that yields nothing for it keeps the input schema; a filter always does). An
/// exception in the function fails the batch with a DataError naming the function and the
/// exception (record: the batch's first row) and is kept in `errors` with the batch's span.
class PyDoFn final : public pipeline::DoFn {
 public:
  /// `fn` is the callable (a KeepAlive reference); `label` names it in messages.
  PyDoFn(PyFnKind kind, std::shared_ptr<const void> fn, std::string label, SchemaPtr declared,
         std::shared_ptr<PyErrors> errors)
      : kind_(kind), fn_(std::move(fn)), label_(std::move(label)), declared_(std::move(declared)),
        errors_(std::move(errors)) {}

  Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override;
  Result<pipeline::DoFnOutput> Process(const RecordBatch& input, pipeline::ProcessContext& ctx) const override;

 private:
  /// Calls the function on `batch` (under the GIL); a raised exception is kept (with `span`, see
  /// PyErrors::Keep) and returned as a DataError.
  Result<pybind11::object> Call(pybind11::dict batch, int64_t span) const;
  /// The output schema of a probe's result (a map's dict, or a flat_map's first batch).
  Result<SchemaPtr> SchemaOfResult(pybind11::handle result, const Schema& input) const;

  PyFnKind kind_;
  std::shared_ptr<const void> fn_;
  std::string label_;
  SchemaPtr declared_;
  std::shared_ptr<PyErrors> errors_;
};

}  // namespace recflow::python
