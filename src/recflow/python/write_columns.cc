// ImportColumn / ImportBatch: recflow._nodes' column trees → ArrayData over the NumPy buffers, validated.
#include "recflow/python/write_columns.h"

#include <pybind11/numpy.h>

#include <string>
#include <utility>
#include <vector>

#include "recflow/columnar/validate.h"

namespace py = pybind11;

namespace recflow::python {

std::shared_ptr<const void> KeepAlive(py::object object) {
  return std::shared_ptr<const void>(object.release().ptr(), [](const void* held) {
    const py::gil_scoped_acquire gil;
    Py_DECREF(static_cast<PyObject*>(const_cast<void*>(held)));
  });
}

void PyReleases::Add(PyObject* object) {
  std::lock_guard<std::mutex> lock(mutex_);
  objects_.push_back(object);
}

void PyReleases::Drain() {
  std::vector<PyObject*> objects;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    objects.swap(objects_);
  }
  for (PyObject* object : objects) Py_DECREF(object);
}

namespace {

/// Buffers are borrowed when their address is a multiple of this (Arrow's alignment for 64-bit values).
constexpr uintptr_t kBorrowAlignment = 8;

/// The type of a leaf kind, or of a timestamp/duration kind with its unit; nullptr for others.
DataTypePtr LeafType(const std::string& kind) {
  static const std::pair<const char*, TimeUnit> kUnits[] = {
      {"s", TimeUnit::kSecond}, {"ms", TimeUnit::kMilli}, {"us", TimeUnit::kMicro}, {"ns", TimeUnit::kNano}};
  for (const auto& [name, unit] : kUnits) {
    if (kind == std::string("timestamp[") + name + "]") return timestamp(unit);
    if (kind == std::string("duration[") + name + "]") return duration(unit);
  }
  if (kind == "float16") return float16();
  if (kind == "large_utf8") return large_utf8();
  if (kind == "large_binary") return large_binary();
  if (kind == "date32") return date32();
  if (kind == "null") return null();
  return ScalarTypeFromName(kind);
}

/// A Buffer over `array`'s bytes: borrowed (a reference to the array kept until the buffer goes,
/// released through `releases`, or by KeepAlive when it is null) when aligned, else copied.
Result<std::shared_ptr<Buffer>> BufferOf(const py::handle& object, const std::string& name,
                                         const std::shared_ptr<PyReleases>& releases) {
  if (!py::isinstance<py::array>(object)) {
    return Status::TypeError("column '" + name + "': a buffer must be a NumPy array");
  }
  const auto array = py::reinterpret_borrow<py::array>(object);
  if ((array.flags() & py::array::c_style) == 0) {
    return Status::TypeError("column '" + name + "': a buffer must be C-contiguous");
  }
  const auto* data = static_cast<const uint8_t*>(array.data());
  const auto size = static_cast<int64_t>(array.nbytes());
  if (reinterpret_cast<uintptr_t>(data) % kBorrowAlignment != 0) {
    return Buffer::CopyOf({data, static_cast<size_t>(size)});
  }
  if (releases == nullptr) return Buffer::Wrap(data, size, KeepAlive(array));
  PyObject* owner = array.inc_ref().ptr();
  return Buffer::Wrap(data, size,
                      std::shared_ptr<const void>(owner, [releases](const void* p) {
                        releases->Add(static_cast<PyObject*>(const_cast<void*>(p)));
                      }));
}

}  // namespace

Result<std::shared_ptr<ArrayData>> ImportColumn(const py::handle& node, const std::string& name,
                                                const std::shared_ptr<PyReleases>& releases) {
  const auto parts = py::reinterpret_borrow<py::tuple>(node);
  if (parts.size() != 7) return Status::TypeError("column '" + name + "': a column node has 7 parts");
  const auto kind = parts[0].cast<std::string>();
  const auto length = parts[1].cast<int64_t>();
  const auto null_count = parts[2].cast<int64_t>();
  std::vector<std::shared_ptr<Buffer>> buffers;
  if (kind == "null") {  // no buffers at all
  } else if (parts[3].is_none()) {
    buffers.push_back(nullptr);
  } else {
    ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity, BufferOf(parts[3], name, releases));
    buffers.push_back(std::move(validity));
  }
  for (const py::handle buffer : py::reinterpret_borrow<py::list>(parts[4])) {
    ASSIGN_OR_RETURN(std::shared_ptr<Buffer> imported, BufferOf(buffer, name, releases));
    buffers.push_back(std::move(imported));
  }
  std::vector<std::shared_ptr<ArrayData>> children;
  std::vector<FieldPtr> fields;
  for (const py::handle child : py::reinterpret_borrow<py::list>(parts[5])) {
    const auto pair = py::reinterpret_borrow<py::tuple>(child);
    const auto child_name = pair[0].cast<std::string>();
    ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> data, ImportColumn(pair[1], name + "." + child_name, releases));
    fields.push_back(Field::Make(child_name, data->type));
    children.push_back(std::move(data));
  }
  DataTypePtr type = LeafType(kind);
  if (type == nullptr) {
    const size_t expected_children = kind == "struct" ? fields.size() : 1;
    if (children.size() != expected_children || (kind == "map" && children[0]->children.size() != 2)) {
      return Status::TypeError("column '" + name + "': a " + kind + " node has the wrong children");
    }
    if (kind == "list") {
      type = list(fields[0]);
    } else if (kind == "large_list") {
      type = large_list(fields[0]);
    } else if (kind == "fixed_size_list") {
      type = fixed_size_list(fields[0], parts[6].cast<int32_t>());
    } else if (kind == "struct") {
      type = struct_(fields);
    } else if (kind == "map") {
      if (children[0]->null_count != 0 || children[0]->children[0]->null_count != 0) {
        return Status::TypeError("column '" + name + "': a map's entries and keys cannot be null");
      }
      const std::vector<FieldPtr>& entries = fields[0]->type()->fields();
      type = map(Field::Make(entries[0]->name(), entries[0]->type(), false), entries[1]);
      children[0]->type = type->fields()[0]->type();
    } else {
      return Status::TypeError("column '" + name + "': recflow cannot write a column of kind '" + kind + "'");
    }
  }
  const bool nested = !children.empty();
  auto data = ArrayData::Make(std::move(type), length, std::move(buffers), null_count, 0, std::move(children));
  // A leaf's buffers are sound by construction (recflow._nodes: values as the array holds them, offsets laid out
  // natively from str/bytes, validity packed from a mask of the values' own length): their sizes are checked. The
  // offsets and masks of lists, maps and structs are the caller's (ListColumn, MapColumn, StructColumn): every value.
  if (Status st = nested ? ValidateFull(*data) : Validate(*data); !st.ok()) {
    return st.WithPrefix("column '" + name + "': ");
  }
  return data;
}

Result<std::shared_ptr<RecordBatch>> ImportBatch(const py::list& columns, const SchemaPtr& expected,
                                                 const std::shared_ptr<PyReleases>& releases) {
  std::vector<FieldPtr> fields;
  std::vector<std::shared_ptr<ArrayData>> arrays;
  for (const py::handle column : columns) {
    const auto pair = py::reinterpret_borrow<py::tuple>(column);
    const auto name = pair[0].cast<std::string>();
    ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> data, ImportColumn(pair[1], name, releases));
    if (!arrays.empty() && data->length != arrays.front()->length) {
      return Status::InvalidArgument("column '" + name + "' has " + std::to_string(data->length) + " rows, column '" +
                                     fields.front()->name() + "' " + std::to_string(arrays.front()->length));
    }
    if (expected != nullptr) {
      const size_t i = fields.size();
      if (i >= static_cast<size_t>(expected->num_fields()) || expected->field(static_cast<int>(i))->name() != name) {
        return Status::TypeError("column '" + name + "' is not column " + std::to_string(i) +
                                 " of the first batch; every batch has the first batch's columns in its order");
      }
      const DataTypePtr& want = expected->field(static_cast<int>(i))->type();
      if (!data->type->Equals(*want)) {
        return Status::TypeError("column '" + name + "' is " + data->type->ToString() + " here but " +
                                 want->ToString() + " in the first batch");
      }
    }
    fields.push_back(Field::Make(name, data->type));
    arrays.push_back(std::move(data));
  }
  if (expected != nullptr && fields.size() != static_cast<size_t>(expected->num_fields())) {
    return Status::TypeError("the batch has " + std::to_string(fields.size()) + " columns, the first batch " +
                             std::to_string(expected->num_fields()));
  }
  const int64_t rows = arrays.empty() ? 0 : arrays.front()->length;
  return RecordBatch::Make(expected != nullptr ? expected : Schema::Make(std::move(fields)), rows, std::move(arrays));
}

}  // namespace recflow::python
