// ExportStreamCapsule and RequestedColumnNames over the C structs of the Arrow C Data and C Stream interfaces.
#include "recflow/python/arrow_capsule.h"

#include "recflow/python/py_errors.h"

namespace py = pybind11;

namespace recflow::python {

namespace {

constexpr const char* kStreamName = "arrow_array_stream";
constexpr const char* kSchemaName = "arrow_schema";

/// Releases the stream still in a dropped capsule (a consumer that took it set release to NULL).
void DropStreamCapsule(PyObject* capsule) {
  auto* stream = static_cast<ArrowArrayStream*>(PyCapsule_GetPointer(capsule, kStreamName));
  if (stream == nullptr) {
    PyErr_Clear();
    return;
  }
  if (stream->release != nullptr) stream->release(stream);
  delete stream;
}

}  // namespace

py::capsule ExportStreamCapsule(std::shared_ptr<BatchStream> stream) {
  auto exported = std::make_unique<ArrowArrayStream>();
  const SchemaPtr schema = stream->schema();
  ThrowIfError(c_data::ExportBatchStream(schema, [stream] { return stream->Next(); }, exported.get()));
  PyObject* capsule = PyCapsule_New(exported.get(), kStreamName, DropStreamCapsule);
  if (capsule == nullptr) {
    exported->release(exported.get());
    throw py::error_already_set();
  }
  exported.release();
  return py::reinterpret_steal<py::capsule>(capsule);
}

std::vector<std::string> RequestedColumnNames(const py::object& requested_schema) {
  auto* schema = static_cast<const ArrowSchema*>(PyCapsule_GetPointer(requested_schema.ptr(), kSchemaName));
  if (schema == nullptr) throw py::error_already_set();
  if (schema->format == nullptr || std::string_view(schema->format) != "+s") {
    throw py::type_error("requested_schema must be a struct schema (format '+s') of the wanted columns");
  }
  std::vector<std::string> names;
  for (int64_t i = 0; i < schema->n_children; ++i) {
    const ArrowSchema* child = schema->children[i];
    names.emplace_back(child != nullptr && child->name != nullptr ? child->name : "");
  }
  return names;
}

}  // namespace recflow::python
