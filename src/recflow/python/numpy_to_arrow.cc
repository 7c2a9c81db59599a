// FromNumpy / InferField: fixed-width arrays viewed through a Buffer that keeps the NumPy array alive, bits packed,
// strings and lists assembled into Arrow offsets and data.
#include "recflow/python/numpy_to_arrow.h"

#include <pybind11/numpy.h>

#include <limits>
#include <string_view>
#include <vector>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/utf8.h"
#include "recflow/python/numpy_columns.h"

namespace py = pybind11;

namespace recflow::python {

namespace {

py::module_ Numpy() { return py::module_::import("numpy"); }

bool IsMasked(py::handle value) { return Numpy().attr("ma").attr("isMaskedArray")(value).cast<bool>(); }

bool IsListColumn(py::handle value) {
  return py::isinstance(value, py::module_::import("recflow._columns").attr("ListColumn"));
}

Status ColumnError(const std::string& name, const std::string& message) {
  return Status::TypeError("column '" + name + "': " + message);
}

/// The type of a NumPy dtype of kind b, i, u, f, U or S; nullptr for other dtypes.
DataTypePtr TypeOfDtype(const py::dtype& dtype) {
  const char kind = dtype.kind();
  const auto size = dtype.itemsize();
  switch (kind) {
    case 'b': return boolean();
    case 'i': return size == 1 ? int8() : size == 2 ? int16() : size == 4 ? int32() : int64();
    case 'u': return size == 1 ? uint8() : size == 2 ? uint16() : size == 4 ? uint32() : uint64();
    case 'f': return size == 2 ? float16() : size == 4 ? float32() : size == 8 ? float64() : nullptr;
    case 'U': return utf8();
    case 'S': return binary();
    default: return nullptr;
  }
}

/// The validity bitmap of `rows` elements, null where `is_null(i)`; nullptr (and no nulls) when none is.
template <typename IsNull>
Result<std::shared_ptr<Buffer>> Validity(int64_t rows, IsNull is_null, int64_t* null_count) {
  *null_count = 0;
  std::vector<int64_t> nulls;
  for (int64_t i = 0; i < rows; ++i) {
    if (is_null(i)) nulls.push_back(i);
  }
  if (nulls.empty()) return std::shared_ptr<Buffer>();
  BufferBuilder bits;
  RETURN_NOT_OK(bits.Resize((rows + 7) / 8));
  bit_util::SetBitsTo(bits.mutable_data(), 0, rows, true);
  for (int64_t i : nulls) bit_util::SetBitTo(bits.mutable_data(), i, false);
  *null_count = static_cast<int64_t>(nulls.size());
  return bits.Finish();
}

/// The mask of a masked array as a bool array (nullptr-like None when `value` is not masked).
py::object MaskOf(py::handle value) {
  if (!IsMasked(value)) return py::none();
  return Numpy().attr("ma").attr("getmaskarray")(value);
}

/// Checks that `field` may hold `null_count` nulls.
Status CheckNullable(const Field& field, int64_t null_count) {
  if (null_count > 0 && !field.nullable()) {
    return ColumnError(field.name(), "holds " + std::to_string(null_count) + " nulls but is not nullable");
  }
  return Status::OK();
}

/// A 1-D contiguous array of `dtype` holding `value`'s data (a view when it already is one), `rows` long.
Result<py::array> Contiguous(py::handle value, const py::object& dtype, const std::string& name, int64_t rows) {
  py::object data =
      IsMasked(value) ? Numpy().attr("ma").attr("getdata")(value) : py::reinterpret_borrow<py::object>(value);
  py::array array = Numpy().attr("ascontiguousarray")(data, py::arg("dtype") = dtype);
  if (array.ndim() != 1 || array.shape(0) != rows) {
    std::string shape;
    for (py::ssize_t d = 0; d < array.ndim(); ++d) shape += (d ? ", " : "") + std::to_string(array.shape(d));
    return ColumnError(name, "expected " + std::to_string(rows) + " values, got an array of shape (" + shape + ")");
  }
  return array;
}

/// The validity of `value`'s mask over `rows` elements.
Result<std::shared_ptr<Buffer>> MaskValidity(py::handle value, int64_t rows, int64_t* null_count) {
  const py::object mask = MaskOf(value);
  if (mask.is_none()) {
    *null_count = 0;
    return std::shared_ptr<Buffer>();
  }
  const py::array_t<bool, py::array::c_style | py::array::forcecast> flags(mask);
  const bool* is_null = flags.data();
  return Validity(rows, [is_null](int64_t i) { return is_null[i]; }, null_count);
}

Result<std::shared_ptr<ArrayData>> FixedWidth(py::handle value, const Field& field, int64_t rows,
                                              const std::string& dtype) {
  ASSIGN_OR_RETURN(py::array array, Contiguous(value, py::dtype(dtype), field.name(), rows));
  int64_t null_count = 0;
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity, MaskValidity(value, rows, &null_count));
  RETURN_NOT_OK(CheckNullable(field, null_count));
  const auto* data = array.data();
  const int64_t size = array.nbytes();
  std::shared_ptr<Buffer> values = Buffer::Wrap(data, size, KeepAlive(std::move(array)));
  return ArrayData::Make(field.type(), rows, {std::move(validity), std::move(values)}, null_count);
}

Result<std::shared_ptr<ArrayData>> Booleans(py::handle value, const Field& field, int64_t rows) {
  ASSIGN_OR_RETURN(py::array array, Contiguous(value, py::dtype("bool"), field.name(), rows));
  int64_t null_count = 0;
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity, MaskValidity(value, rows, &null_count));
  RETURN_NOT_OK(CheckNullable(field, null_count));
  BufferBuilder bits;
  RETURN_NOT_OK(bits.Resize((rows + 7) / 8));
  const bool* flags = static_cast<const bool*>(array.data());
  int64_t i = 0;
  bit_util::GenerateBits(bits.mutable_data(), 0, rows, [&] { return flags[i++]; });
  return ArrayData::Make(field.type(), rows, {std::move(validity), bits.Finish()}, null_count);
}

/// utf8 / binary (int32 offsets) or their large forms (int64) from a sequence of str, bytes and None.
template <typename Offset>
Result<std::shared_ptr<ArrayData>> Strings(py::handle value, const Field& field, int64_t rows) {
  const std::string& name = field.name();
  const py::sequence items = Numpy().attr("asarray")(value, py::arg("dtype") = "O").attr("tolist")();
  if (static_cast<int64_t>(py::len(items)) != rows) {
    return ColumnError(name, "expected " + std::to_string(rows) + " values, got " + std::to_string(py::len(items)));
  }
  const py::object mask = MaskOf(value);
  const bool* masked = nullptr;
  py::array_t<bool, py::array::c_style | py::array::forcecast> flags;
  if (!mask.is_none()) {
    flags = mask;
    masked = flags.data();
  }
  const bool text = field.type()->id() == TypeId::kUtf8 || field.type()->id() == TypeId::kLargeUtf8;
  BufferBuilder offsets, data;
  RETURN_NOT_OK(offsets.Reserve((rows + 1) * static_cast<int64_t>(sizeof(Offset))));
  offsets.UnsafeAppendValue(Offset{0});
  std::vector<bool> is_null(static_cast<size_t>(rows), false);
  for (int64_t i = 0; i < rows; ++i) {
    const py::handle item = items[static_cast<size_t>(i)];
    std::string_view bytes;
    if (item.is_none() || (masked != nullptr && masked[i])) {
      is_null[static_cast<size_t>(i)] = true;
    } else if (PyUnicode_Check(item.ptr())) {
      Py_ssize_t size = 0;
      const char* utf8 = PyUnicode_AsUTF8AndSize(item.ptr(), &size);
      if (utf8 == nullptr) throw py::error_already_set();
      bytes = {utf8, static_cast<size_t>(size)};
    } else if (PyBytes_Check(item.ptr())) {
      bytes = {PyBytes_AS_STRING(item.ptr()), static_cast<size_t>(PyBytes_GET_SIZE(item.ptr()))};
      if (text && !IsValidUtf8(bytes)) return ColumnError(name, "value " + std::to_string(i) + " is not UTF-8");
    } else {
      return ColumnError(name, "value " + std::to_string(i) + " is of type " +
                                   std::string(py::str(item.get_type().attr("__name__"))) + ", not " +
                                   (text ? "str" : "bytes"));
    }
    RETURN_NOT_OK(data.Append(bytes.data(), static_cast<int64_t>(bytes.size())));
    if (data.size() > std::numeric_limits<Offset>::max()) {
      return ColumnError(name, "holds more than " + std::to_string(std::numeric_limits<Offset>::max()) +
                                   " bytes; give it a large_" + (text ? "utf8" : "binary") + " type");
    }
    offsets.UnsafeAppendValue(static_cast<Offset>(data.size()));
  }
  int64_t null_count = 0;
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity,
                   Validity(rows, [&](int64_t i) { return is_null[static_cast<size_t>(i)]; }, &null_count));
  RETURN_NOT_OK(CheckNullable(field, null_count));
  return ArrayData::Make(field.type(), rows, {std::move(validity), offsets.Finish(), data.Finish()}, null_count);
}

/// list / large_list from a ListColumn, a 2-D array or a sequence of arrays and None.
template <typename Offset>
Result<std::shared_ptr<ArrayData>> Lists(py::handle value, const Field& field, int64_t rows) {
  const std::string& name = field.name();
  const FieldPtr& item = field.type()->fields()[0];
  const Field child_field(name + ".item", item->type(), item->nullable(), nullptr);
  const char* offset_dtype = sizeof(Offset) == 4 ? "<i4" : "<i8";
  py::object values, offsets, mask = py::none();
  if (IsListColumn(value)) {
    values = value.attr("values");
    offsets = value.attr("offsets");
    mask = value.attr("mask");
  } else if (py::isinstance<py::array>(value) && py::array(py::reinterpret_borrow<py::object>(value)).ndim() == 2) {
    const py::array matrix = py::reinterpret_borrow<py::array>(value);
    const py::ssize_t width = matrix.shape(1);
    values = matrix.attr("reshape")(-1);
    offsets = Numpy().attr("arange")(matrix.shape(0) + 1).attr("__mul__")(width);
    mask = MaskOf(value);
    if (!mask.is_none()) mask = mask.attr("any")(py::arg("axis") = 1);
  } else {
    const auto elements = py::reinterpret_steal<py::list>(PySequence_List(value.ptr()));
    if (!elements) throw py::error_already_set();
    std::vector<int64_t> starts = {0};
    py::list parts;
    py::list nulls;
    for (const py::handle element : elements) {
      nulls.append(element.is_none());
      if (!element.is_none()) {
        const py::array part = Numpy().attr("asarray")(element);
        parts.append(part);
        starts.push_back(starts.back() + static_cast<int64_t>(py::len(part)));
      } else {
        starts.push_back(starts.back());
      }
    }
    values = parts.empty() ? Numpy().attr("zeros")(0) : Numpy().attr("concatenate")(parts);
    offsets = py::array_t<int64_t>(static_cast<py::ssize_t>(starts.size()), starts.data());
    mask = Numpy().attr("asarray")(nulls, py::arg("dtype") = "bool");
  }
  ASSIGN_OR_RETURN(py::array offset_array, Contiguous(offsets, py::dtype(offset_dtype), name + " (offsets)", rows + 1));
  const auto* starts = static_cast<const Offset*>(offset_array.data());
  const int64_t child_rows = static_cast<int64_t>(py::len(values));
  for (int64_t i = 0; i < rows; ++i) {
    if (starts[i] < 0 || starts[i] > starts[i + 1] || starts[i + 1] > child_rows) {
      return ColumnError(name, "list " + std::to_string(i) + " has offsets " + std::to_string(starts[i]) + ".." +
                                   std::to_string(starts[i + 1]) + " outside its " + std::to_string(child_rows) +
                                   " values");
    }
  }
  int64_t null_count = 0;
  std::shared_ptr<Buffer> validity;
  if (!mask.is_none()) {
    const py::array_t<bool, py::array::c_style | py::array::forcecast> flags(mask);
    const bool* is_null = flags.data();
    ASSIGN_OR_RETURN(validity, Validity(rows, [is_null](int64_t i) { return is_null[i]; }, &null_count));
  }
  RETURN_NOT_OK(CheckNullable(field, null_count));
  ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> child, FromNumpy(values, child_field, child_rows));
  const auto* data = offset_array.data();
  const int64_t size = offset_array.nbytes();
  std::shared_ptr<Buffer> offset_buffer = Buffer::Wrap(data, size, KeepAlive(std::move(offset_array)));
  return ArrayData::Make(field.type(), rows, {std::move(validity), std::move(offset_buffer)}, null_count, 0,
                         {std::move(child)});
}

/// A null-type column: every value None or masked.
Result<std::shared_ptr<ArrayData>> Nulls(py::handle value, const Field& field, int64_t rows) {
  const py::object objects = Numpy().attr("asarray")(value, py::arg("dtype") = "O");
  if (static_cast<int64_t>(py::len(objects)) != rows) {
    return ColumnError(field.name(), "expected " + std::to_string(rows) + " values, got " +
                                         std::to_string(py::len(objects)));
  }
  const py::object none = objects.attr("__eq__")(py::none());
  const py::object mask = MaskOf(value);
  const py::object null = mask.is_none() ? none : Numpy().attr("logical_or")(mask, none);
  if (!Numpy().attr("all")(null).cast<bool>()) {
    return ColumnError(field.name(), "holds a value that is not None, but the column's type is null");
  }
  return ArrayData::Make(field.type(), rows, {}, rows);
}

}  // namespace

std::shared_ptr<const void> KeepAlive(py::object object) {
  return std::shared_ptr<const void>(object.release().ptr(), [](const void* held) {
    const py::gil_scoped_acquire gil;
    Py_DECREF(static_cast<PyObject*>(const_cast<void*>(held)));
  });
}

Result<FieldPtr> InferField(const std::string& name, py::handle value, const Schema& input) {
  const int index = input.GetFieldIndex(name);
  const FieldPtr same = index >= 0 ? input.field(index) : nullptr;
  DataTypePtr type;
  if (IsListColumn(value)) {
    ASSIGN_OR_RETURN(FieldPtr item, InferField(name + ".item", value.attr("values"), *Schema::Make({})));
    type = list(item->type());
  } else {
    const py::array array = Numpy().attr("asarray")(IsMasked(value) ? Numpy().attr("ma").attr("getdata")(value)
                                                                    : py::reinterpret_borrow<py::object>(value));
    const DataTypePtr element = TypeOfDtype(array.dtype());
    if (array.ndim() == 2 && element != nullptr) {
      type = list(element);
    } else if (array.ndim() == 1 && element != nullptr) {
      type = element;
    } else if (array.ndim() == 1 && array.dtype().kind() == 'O' && same != nullptr) {
      type = same->type();
    } else {
      return ColumnError(name, "cannot tell its type from a " + std::to_string(array.ndim()) + "-D array of dtype " +
                                   std::string(py::str(array.dtype())) + "; name it in schema={'" + name + "': TYPE}");
    }
  }
  if (same != nullptr && same->type()->Equals(*type)) return same;
  return Field::Make(name, type);
}

Result<std::shared_ptr<ArrayData>> FromNumpy(py::handle value, const Field& field, int64_t rows) {
  const DataType& type = *field.type();
  const std::string dtype = ViewDtype(type);
  if (!dtype.empty()) return FixedWidth(value, field, rows, dtype);
  switch (type.id()) {
    case TypeId::kNull: return Nulls(value, field, rows);
    case TypeId::kBool: return Booleans(value, field, rows);
    case TypeId::kUtf8:
    case TypeId::kBinary: return Strings<int32_t>(value, field, rows);
    case TypeId::kLargeUtf8:
    case TypeId::kLargeBinary: return Strings<int64_t>(value, field, rows);
    case TypeId::kList: return Lists<int32_t>(value, field, rows);
    case TypeId::kLargeList: return Lists<int64_t>(value, field, rows);
    default: return ColumnError(field.name(), "recflow cannot make a " + type.ToString() + " column from Python yet");
  }
}

}  // namespace recflow::python
