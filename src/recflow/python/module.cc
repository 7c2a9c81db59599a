// The `recflow._recflow` extension: NativeDataset, BatchStream and ConnectStream bound for the pure-Python layer
// (python/recflow), batches handed out as dicts of NumPy columns.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <mutex>

#include "recflow/core/allocator_tuning.h"
#include "recflow/python/arrow_capsule.h"
#include "recflow/python/batch_stream.h"
#include "recflow/python/dask_bindings.h"
#include "recflow/python/native_dataset.h"
#include "recflow/python/numpy_columns.h"
#include "recflow/python/py_errors.h"
#include "recflow/python/run_bindings.h"
#include "recflow/python/sigint_stop.h"
#include "recflow/python/write_bindings.h"

namespace py = pybind11;

namespace recflow::python {

namespace {

/// `schema`'s fields as (name, type, nullable) triples, type as DataType::ToString names it.
py::list FieldsOf(const Schema& schema) {
  py::list fields;
  for (const FieldPtr& field : schema.fields()) {
    fields.append(py::make_tuple(field->name(), field->type()->ToString(), field->nullable()));
  }
  return fields;
}

/// A BatchStream as Python iterates it: one caller at a time, the GIL released while waiting for
/// a batch, pending signals (Ctrl-C) handled before and after each wait; a SIGINT during a wait
/// stops the read through `stop` (its run's stop source) so that the wait ends.
class PyStream {
 public:
  PyStream(std::unique_ptr<BatchStream> stream, StopSource stop) : stream_(std::move(stream)), stop_(std::move(stop)) {}

  /// The schema as (name, type, nullable) triples.
  py::list schema() {
    const std::unique_lock<std::mutex> lock = Lock();
    return FieldsOf(*Taken().schema());
  }

  /// The next batch as {column: NumPy value} (ToNumpy with `options`) with its row count, or None
  /// at the end. A pending signal raises its exception (KeyboardInterrupt) after the batch
  /// arrived; the stream is then closed, which stops the read.
  py::object Next(NumpyOptions options) {
    const std::unique_lock<std::mutex> lock = Lock();
    BatchStream& stream = Taken();
    if (PyErr_CheckSignals() != 0) {
      CloseLocked();
      throw py::error_already_set();
    }
    Result<std::shared_ptr<RecordBatch>> next = WithoutGil([&] {
      const SigintStop interruptible(stop_);
      return stream.Next();
    });
    if (PyErr_CheckSignals() != 0) {
      CloseLocked();
      throw py::error_already_set();
    }
    const std::shared_ptr<RecordBatch> batch = ValueOrThrow(std::move(next));
    if (batch == nullptr) return py::none();
    return py::make_tuple(batch->num_rows(), ToNumpy(*batch, options));
  }

  /// Hands the stream to an Arrow PyCapsule consumer; this object is then closed.
  py::capsule Export() {
    const std::unique_lock<std::mutex> lock = Lock();
    Taken();
    std::shared_ptr<BatchStream> stream(std::move(stream_));
    return ExportStreamCapsule(std::move(stream));
  }

  /// Releases the stream (a read in progress stops); idempotent.
  void Close() {
    const std::unique_lock<std::mutex> lock = Lock();
    CloseLocked();
  }

 private:
  /// The stream's lock, waited for with the GIL released (its holder may be waiting for a batch
  /// without the GIL, and needs it back to return).
  std::unique_lock<std::mutex> Lock() {
    py::gil_scoped_release release;
    return std::unique_lock<std::mutex>(mutex_);
  }

  /// Close, the lock held.
  void CloseLocked() {
    std::unique_ptr<BatchStream> stream = std::move(stream_);
    py::gil_scoped_release release;
    stream.reset();
  }

  BatchStream& Taken() {
    if (stream_ == nullptr) throw py::value_error("the stream was closed or handed to an Arrow consumer");
    return *stream_;
  }

  std::mutex mutex_;
  std::unique_ptr<BatchStream> stream_;
  StopSource stop_;
};

/// BatchOptions from the Python arguments.
BatchOptions OptionsOf(std::vector<std::string> columns, std::optional<int64_t> batch_size,
                       const std::string& batch_mode) {
  BatchOptions options;
  options.columns = std::move(columns);
  options.batch_size = batch_size;
  options.mode = batch_mode == "drop" ? BatchMode::kDropRemainder
                 : batch_mode == "auto" || !batch_size.has_value() ? BatchMode::kAuto
                                                                    : BatchMode::kKeepRemainder;
  if (batch_mode != "keep" && batch_mode != "drop" && batch_mode != "auto") {
    throw py::value_error("batch_mode must be 'keep', 'drop' or 'auto', not '" + batch_mode + "'");
  }
  return options;
}

/// A PyStream over a stream `fill(out, stop)` fills (with the GIL released: reads may open files
/// and sample), `stop` the source of the run behind it, if any.
template <typename Fill>
std::unique_ptr<PyStream> StreamOf(Fill fill, BatchOptions options) {
  StopSource stop;
  auto stream = WithoutGil([&]() -> Result<std::unique_ptr<BatchStream>> {
    ArrowArrayStream raw{};
    RETURN_NOT_OK(fill(&raw, stop));
    return BatchStream::Open(&raw, std::move(options));
  });
  return std::make_unique<PyStream>(ValueOrThrow(std::move(stream)), std::move(stop));
}

/// The InputSpec of recflow.read's arguments.
dataset::InputSpec SpecOf(const std::string& format, const std::string& schema_file,
                          const std::vector<std::string>& schema_hints, bool skip_bad, int64_t infer_rows,
                          const std::map<std::string, std::vector<std::string>>& args) {
  dataset::InputSpec spec;
  spec.from = format;
  spec.schema_file = schema_file;
  spec.schema_hints = schema_hints;
  spec.skip_bad = skip_bad;
  spec.infer_rows = infer_rows;
  for (const auto& [key, values] : args) {
    if (values.size() == 1) {
      spec.args.Set(key, values.front());
    } else {
      spec.args.SetList(key, values);
    }
  }
  return spec;
}

}  // namespace

}  // namespace recflow::python

PYBIND11_MODULE(_recflow, m) {
  using namespace recflow;
  using namespace recflow::python;
  m.doc() = "recflow's native engine; use the `recflow` package.";
  // Batch memory freed is kept for the next batch, as in the recflow command (a Dask worker too, which Dask starts
  // with MALLOC_TRIM_THRESHOLD_=65536): otherwise every batch's columns are mapped or trimmed and faulted in again.
  TuneAllocator();
  RegisterError(m);
  RegisterWrite(m);
  RegisterDask(m);

  py::class_<ArrowBuffer>(m, "ArrowBuffer", "The owner of one Arrow buffer: the base of the NumPy views on it.")
      .def_property_readonly("address", &ArrowBuffer::address, "Address of the buffer's first byte.")
      .def_property_readonly("size", &ArrowBuffer::size, "Size of the buffer in bytes.");

  py::class_<PyStream>(m, "Stream", "Batches of one read or connection.")
      .def_property_readonly("schema", &PyStream::schema)
      .def(
          "next",
          [](PyStream& self, bool bytes_as_lists, bool dense_uniform_lists) {
            return self.Next(NumpyOptions{bytes_as_lists, dense_uniform_lists});
          },
          py::arg("bytes_as_lists"), py::arg("dense_uniform_lists") = false,
          "(rows, {column: value}) or None at the end (NumpyOptions: binary as uint8 lists, uniform lists as 2-D).")
      .def("export", &PyStream::Export, "The stream as an 'arrow_array_stream' PyCapsule.")
      .def("close", &PyStream::Close, "Stops the read and releases the stream.");

  py::class_<NativeDataset, std::shared_ptr<NativeDataset>>(m, "Dataset", "Detected inputs and their schema.")
      .def_static(
          "open",
          [](const std::vector<std::string>& paths, const std::string& format, const std::string& schema_file,
             const std::vector<std::string>& schema_hints, bool skip_bad, int64_t infer_rows,
             const std::map<std::string, std::vector<std::string>>& args) {
            const dataset::InputSpec spec = SpecOf(format, schema_file, schema_hints, skip_bad, infer_rows, args);
            return ValueOrThrow(WithoutGil([&] { return NativeDataset::Open(paths, spec); }));
          },
          py::arg("paths"), py::arg("format"), py::arg("schema_file"), py::arg("schema_hints"), py::arg("skip_bad"),
          py::arg("infer_rows"), py::arg("args"))
      .def_property_readonly("schema", [](const NativeDataset& self) { return FieldsOf(*self.schema()); })
      .def("splits",
           [](const NativeDataset& self, int64_t target_bytes) {
             return ValueOrThrow(WithoutGil([&] { return self.Splits(target_bytes); }));
           })
      .def(
          "stream",
          [](std::shared_ptr<NativeDataset> self, std::optional<std::vector<std::string>> splits, int threads,
             std::vector<std::string> columns, std::optional<int64_t> batch_size, const std::string& batch_mode) {
            BatchOptions options = OptionsOf(std::move(columns), batch_size, batch_mode);
            if (splits.has_value()) {
              return StreamOf([&](ArrowArrayStream* out,
                                  const StopSource& stop) { return self->ReadSplits(*splits, threads, out, stop); },
                              std::move(options));
            }
            return StreamOf(
                [&](ArrowArrayStream* out, const StopSource& stop) { return self->Read(threads, out, stop); },
                std::move(options));
          },
          py::arg("splits"), py::arg("threads"), py::arg("columns"), py::arg("batch_size"), py::arg("batch_mode"));

  m.def(
      "connect",
      [](const std::string& endpoint, std::vector<std::string> columns, std::optional<int64_t> batch_size,
         const std::string& batch_mode) {
        return StreamOf([&](ArrowArrayStream* out, const StopSource&) { return ConnectStream(endpoint, out); },
                        OptionsOf(std::move(columns), batch_size, batch_mode));
      },
      py::arg("endpoint"), py::arg("columns"), py::arg("batch_size"), py::arg("batch_mode"));

  m.def("requested_columns", &RequestedColumnNames, "The field names of an 'arrow_schema' PyCapsule.");
  RegisterRun(m);
}
