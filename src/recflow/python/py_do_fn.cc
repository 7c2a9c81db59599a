// PyDoFn: the batch handed to the Python function as NumPy columns, its result checked and converted back natively.
#include "recflow/python/py_do_fn.h"

#include <pybind11/numpy.h>

#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/concatenate.h"
#include "recflow/columnar/take.h"
#include "recflow/python/numpy_columns.h"
#include "recflow/python/numpy_to_arrow.h"
#include "recflow/python/write_columns.h"

namespace py = pybind11;

namespace recflow::python {

namespace {

const char* KindName(PyFnKind kind) {
  switch (kind) {
    case PyFnKind::kMap: return "map";
    case PyFnKind::kFilter: return "filter";
    case PyFnKind::kFlatMap: return "flat_map";
  }
  return "";
}

std::string TypeName(py::handle value) { return py::str(value.get_type().attr("__name__")); }

/// OK when `result` is a dict (of columns), else the TypeError saying what it is.
Status CheckDict(py::handle result) {
  if (PyDict_Check(result.ptr())) return Status::OK();
  return Status::TypeError("it returned a " + TypeName(result) + ", not a dict of columns");
}

/// `result` (a dict of columns, as a map returns) as a batch of `schema`, `rows` rows (-1: as many
/// as its first column has).
Result<std::shared_ptr<RecordBatch>> BatchOf(py::handle result, const SchemaPtr& schema, int64_t rows) {
  RETURN_NOT_OK(CheckDict(result));
  const py::dict columns = py::reinterpret_borrow<py::dict>(result);
  for (const auto& [key, value] : columns) {
    const std::string name = py::str(key);
    if (schema->GetFieldIndex(name) < 0) {
      return Status::TypeError("it returned column '" + name + "', which its output schema " + schema->ToString() +
                               " does not have");
    }
  }
  if (rows < 0) rows = schema->num_fields() == 0 ? 0 : -1;
  std::vector<std::shared_ptr<ArrayData>> arrays;
  for (const FieldPtr& field : schema->fields()) {
    const py::str name(field->name());
    if (!columns.contains(name)) return Status::TypeError("it returned no column '" + field->name() + "'");
    const py::handle value = columns[name];
    if (rows < 0) rows = static_cast<int64_t>(py::len(value));
    ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> array, FromNumpy(value, *field, rows));
    arrays.push_back(std::move(array));
  }
  return RecordBatch::Make(schema, rows, std::move(arrays));
}

/// What a flat_map yields: a dict of columns, or (source rows, dict) naming the input row each
/// output row comes from.
struct Yielded {
  py::handle columns;
  py::handle rows;  ///< null when the item is a bare dict
};

Yielded YieldedOf(py::handle item) {
  if (PyTuple_Check(item.ptr()) && PyTuple_GET_SIZE(item.ptr()) == 2) {
    return {PyTuple_GET_ITEM(item.ptr(), 1), PyTuple_GET_ITEM(item.ptr(), 0)};
  }
  return {item, py::handle()};
}

/// Appends to `parents` the input row of each of a yielded batch's `count` rows: `rows` (an
/// integer array of `count` input rows of the `input_rows`), or the first row when it is null.
Status AppendSourceRows(py::handle rows, int64_t count, int64_t input_rows, std::vector<int64_t>* parents) {
  if (!rows) {
    parents->insert(parents->end(), static_cast<size_t>(count), 0);
    return Status::OK();
  }
  const py::array array = py::module_::import("numpy").attr("asarray")(rows);
  if (array.dtype().kind() != 'i' && array.dtype().kind() != 'u') {
    return Status::TypeError("it yielded source rows of dtype " + std::string(py::str(array.dtype())) +
                             ", not integers");
  }
  if (array.ndim() != 1 || array.shape(0) != count) {
    return Status::TypeError("it yielded " + std::to_string(array.ndim() == 1 ? array.shape(0) : array.size()) +
                             " source rows for a batch of " + std::to_string(count) + " rows");
  }
  const py::array_t<int64_t, py::array::c_style | py::array::forcecast> values(array);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t row = values.data()[i];
    if (row < 0 || row >= input_rows) {
      return Status::TypeError("it yielded source row " + std::to_string(row) + ", not a row of its batch of " +
                               std::to_string(input_rows));
    }
    parents->push_back(row);
  }
  return Status::OK();
}

/// The rows of `input` a filter's `result` (a boolean mask, masked entries dropped) keeps.
Result<std::vector<int64_t>> KeptRows(py::handle result, int64_t rows) {
  const py::module_ numpy = py::module_::import("numpy");
  const py::array mask = numpy.attr("asarray")(numpy.attr("ma").attr("filled")(result, false));
  if (mask.dtype().kind() != 'b' || mask.ndim() != 1 || mask.shape(0) != rows) {
    return Status::TypeError("it returned an array of dtype " + std::string(py::str(mask.dtype())) + " and " +
                             std::to_string(mask.ndim()) + " dimension(s), not a boolean mask of " +
                             std::to_string(rows) + " rows");
  }
  const py::array_t<bool, py::array::c_style | py::array::forcecast> flags(mask);
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < rows; ++i) {
    if (flags.data()[i]) kept.push_back(i);
  }
  return kept;
}

}  // namespace

void PyErrors::Keep(py::error_already_set& error, int64_t span) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (exception_ != nullptr) return;
  if (error.trace()) PyException_SetTraceback(error.value().ptr(), error.trace().ptr());
  exception_ = KeepAlive(error.value());
  span_ = span;
}

int64_t PyErrors::span() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return span_;
}

py::object PyErrors::exception() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (exception_ == nullptr) return py::none();
  return py::reinterpret_borrow<py::object>(static_cast<PyObject*>(const_cast<void*>(exception_.get())));
}

Result<py::object> PyDoFn::Call(py::dict batch, int64_t span) const {
  const auto fn = py::reinterpret_borrow<py::object>(static_cast<PyObject*>(const_cast<void*>(fn_.get())));
  try {
    return fn(std::move(batch));
  } catch (py::error_already_set& error) {
    errors_->Keep(error, span);
    const std::string raised = std::string(KindName(kind_)) + " function " + label_ + " raised " +
                               TypeName(error.value()) + ": " + std::string(py::str(error.value()));
    if (span < 0) {
      return Status::DataError(raised + " when called on an empty batch to learn its output columns; name them with " +
                               "schema={column: type}");
    }
    return Status::DataError(raised).WithRecord(0);
  }
}

Result<SchemaPtr> PyDoFn::SchemaOfResult(py::handle result, const Schema& input) const {
  if (Status st = CheckDict(result); !st.ok()) {
    return st.WithPrefix(std::string(KindName(kind_)) + " function " + label_ + ": ");
  }
  std::vector<FieldPtr> fields;
  try {
    for (const auto& [key, value] : py::reinterpret_borrow<py::dict>(result)) {
      Result<FieldPtr> field = InferField(py::str(key), value, input);
      if (!field.ok()) return field.status().WithPrefix(std::string(KindName(kind_)) + " function " + label_ + ": ");
      fields.push_back(*std::move(field));
    }
  } catch (py::error_already_set& error) {
    errors_->Keep(error, -1);
    return Status::TypeError(std::string(KindName(kind_)) + " function " + label_ + ": its result's types could " +
                             "not be told: " + TypeName(error.value()) + ": " + std::string(py::str(error.value())));
  }
  return Schema::Make(std::move(fields));
}

Result<SchemaPtr> PyDoFn::OutputSchema(const SchemaPtr& input) const {
  if (kind_ == PyFnKind::kFilter) return input;
  if (declared_ != nullptr) return declared_;
  std::vector<std::shared_ptr<ArrayData>> empty;
  for (const FieldPtr& field : input->fields()) {
    ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> array, MakeEmptyArray(field->type()));
    empty.push_back(std::move(array));
  }
  ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, RecordBatch::Make(input, 0, std::move(empty)));
  const py::gil_scoped_acquire gil;
  ASSIGN_OR_RETURN(py::object result, Call(ToNumpy(*batch, NumpyOptions()), /*span=*/-1));
  if (kind_ == PyFnKind::kMap) return SchemaOfResult(result, *input);
  try {
    for (const py::handle first : result) return SchemaOfResult(YieldedOf(first).columns, *input);
  } catch (py::error_already_set& error) {
    errors_->Keep(error, -1);
    return Status::DataError("flat_map function " + label_ + "'s batches could not be iterated: " + error.what());
  }
  return input;
}

Result<pipeline::DoFnOutput> PyDoFn::Process(const RecordBatch& input, pipeline::ProcessContext& ctx) const {
  const py::gil_scoped_acquire gil;
  const int64_t rows = input.num_rows();
  const int64_t span = rows > 0 ? ctx.UnitRow(rows - 1) - ctx.UnitRow(0) : 0;
  ASSIGN_OR_RETURN(py::object result, Call(ToNumpy(input, NumpyOptions()), span));
  const std::string returned = std::string(KindName(kind_)) + " function " + label_ + ": ";
  pipeline::DoFnOutput out;
  try {
    switch (kind_) {
      case PyFnKind::kMap: {
        Result<std::shared_ptr<RecordBatch>> batch = BatchOf(result, ctx.output_schema(), rows);
        if (!batch.ok()) return batch.status().WithPrefix(returned).WithRecord(0);
        out.batch = *std::move(batch);
        return out;
      }
      case PyFnKind::kFilter: {
        Result<std::vector<int64_t>> kept = KeptRows(result, rows);
        if (!kept.ok()) return kept.status().WithPrefix(returned).WithRecord(0);
        if (static_cast<int64_t>(kept->size()) == rows) {
          ASSIGN_OR_RETURN(out.batch, RecordBatch::Make(input.schema(), rows, input.columns()));
          return out;
        }
        ASSIGN_OR_RETURN(out.batch, TakeRows(input, *kept));
        out.parents = *std::move(kept);
        return out;
      }
      case PyFnKind::kFlatMap: {
        std::vector<std::shared_ptr<RecordBatch>> batches;
        bool all_bare = true;
        for (const py::handle item : result) {
          const Yielded yielded = YieldedOf(item);
          Result<std::shared_ptr<RecordBatch>> batch = BatchOf(yielded.columns, ctx.output_schema(), -1);
          if (!batch.ok()) return batch.status().WithPrefix(returned).WithRecord(0);
          all_bare = all_bare && !yielded.rows;
          // Rows yielded without their source rows come from the batch as a whole: its first record.
          if (Status st = AppendSourceRows(yielded.rows, (*batch)->num_rows(), rows, &out.parents); !st.ok()) {
            return st.WithPrefix(returned).WithRecord(0);
          }
          batches.push_back(*std::move(batch));
        }
        // Bare batches of as many rows as the input, in all, are taken row for row (a map's rows): output row i
        // from input row i, so a later error names that row's own record.
        if (all_bare && static_cast<int64_t>(out.parents.size()) == rows) out.parents.clear();
        ASSIGN_OR_RETURN(out.batch, ConcatenateBatches(ctx.output_schema(), batches));
        return out;
      }
    }
  } catch (py::error_already_set& error) {
    errors_->Keep(error, span);
    return Status::DataError(returned + "its result could not be taken: " + TypeName(error.value()) + ": " +
                             std::string(py::str(error.value())))
        .WithRecord(0);
  }
  return out;
}

}  // namespace recflow::python
