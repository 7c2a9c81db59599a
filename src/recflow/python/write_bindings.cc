// The Writer class of recflow._recflow: WriteJob started on the first batch's schema, batches pushed with the GIL
// released, signals checked after each push, the borrowed NumPy buffers released on the caller's thread.
#include "recflow/python/write_bindings.h"

#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "recflow/python/object_columns.h"
#include "recflow/python/py_errors.h"
#include "recflow/python/write_columns.h"
#include "recflow/python/write_job.h"
#include "recflow/python/write_spec.h"

namespace py = pybind11;

namespace recflow::python {

namespace {

/// One recflow.write: the job starts with the first batch (its schema is the dataset's).
class PyWriter {
 public:
  explicit PyWriter(dataset::OutputSpec spec, int threads) : spec_(std::move(spec)), threads_(threads) {}

  ~PyWriter() { Abort("the writer was dropped before it finished"); }

  /// Imports `columns` (ImportBatch's (name, node) pairs) and hands the batch to the job, waiting
  /// without the GIL while the job is behind. A pending signal raises its exception (the caller
  /// aborts); a failed job raises its error.
  void Push(const py::list& columns) {
    releases_->Drain();
    if (done_) throw py::value_error("the writer has finished");
    std::shared_ptr<RecordBatch> batch =
        ValueOrThrow(ImportBatch(columns, job_ ? job_->schema() : nullptr, releases_));
    if (job_ == nullptr) {
      job_ = ValueOrThrow(WithoutGil([&] { return WriteJob::Start(spec_, batch->schema(), threads_); }));
    }
    const bool taken = WithoutGil([&] { return job_->Push(std::move(batch)); });
    if (!taken) {
      Finish();  // raises the run's error
      throw py::value_error("the write ended before its input");
    }
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }

  /// Ends the input and commits the dataset: what it wrote, or the run's error raised (the
  /// output as it was).
  py::dict Finish() {
    if (job_ == nullptr) ThrowIfError(Status::InvalidArgument("nothing to write: the data gave no batch"));
    done_ = true;
    Result<dataset::SinkStats> result = WithoutGil([&] { return job_->Finish(); });
    releases_->Drain();
    const dataset::SinkStats stats = ValueOrThrow(std::move(result));
    return StatsDict(stats);
  }

  /// Stops the job (nothing of it appears in the output) and waits for it; idempotent.
  void Abort(const std::string& reason) {
    done_ = true;
    if (job_ != nullptr) {
      py::gil_scoped_release release;
      job_->Abort(Status::Cancelled(reason));
    }
    releases_->Drain();
  }

 private:
  dataset::OutputSpec spec_;
  int threads_;
  std::shared_ptr<PyReleases> releases_ = std::make_shared<PyReleases>();
  std::unique_ptr<WriteJob> job_;
  bool done_ = false;
};

}  // namespace

void RegisterWrite(py::module_& module) {
  module.def("string_buffers", &StringBuffers, py::arg("items"), py::arg("mask"), py::arg("text"),
             py::arg("int32_limit"),
             "The (offsets, data) NumPy buffers of a utf8 (text) or binary column of `items`, empty where "
             "`mask` (None or a bool array, True = null) is True; int64 offsets past `int32_limit` bytes, else "
             "int32.");
  module.def("object_node", &ObjectNode, py::arg("name"), py::arg("values"), py::arg("mask"), py::arg("int32_limit"),
             "(kind, mask, node) of an object column: the kind of its items, its nulls (None, NaN, pandas.NA, NaT "
             "or masked; None when none is), and its column node (None for lists and dicts).");
  py::class_<PyWriter>(module, "Writer", "One dataset written from batches (recflow.write).")
      .def(py::init([](const py::tuple& spec, int threads) {
             return std::make_unique<PyWriter>(OutputSpecOf(spec), threads);
           }),
           py::arg("spec"), py::arg("threads"))
      .def("push", &PyWriter::Push, py::arg("columns"), "Writes one batch of (name, column node) pairs.")
      .def("finish", &PyWriter::Finish, "Commits the dataset; returns what was written.")
      .def("abort", &PyWriter::Abort, py::arg("reason"), "Abandons the write; the output stays as it was.");
}

}  // namespace recflow::python
