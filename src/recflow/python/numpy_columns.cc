// ToNumpy: one Arrow-layout column turned into NumPy, viewing its buffers wherever NumPy can hold the layout.
#include "recflow/python/numpy_columns.h"

#include <pybind11/numpy.h>

#include <optional>
#include <string>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/schema.h"
#include "recflow/python/py_errors.h"

namespace py = pybind11;

namespace recflow::python {

namespace {

/// A read-only NumPy array of `shape` (C order) of `dtype`, `item_bytes` each, viewing `buffer` (not null) from item
/// `first` (a buffer may be a read-only mapping of the file, or shared with other batches).
py::array ViewShaped(const std::shared_ptr<Buffer>& buffer, const std::string& dtype, int64_t item_bytes,
                     int64_t first, std::vector<py::ssize_t> shape) {
  std::vector<py::ssize_t> strides(shape.size(), item_bytes);
  for (size_t i = shape.size() - 1; i > 0; --i) strides[i - 1] = strides[i] * shape[i];
  const py::object owner = py::cast(ArrowBuffer(buffer));
  py::array view(py::dtype(dtype), std::move(shape), std::move(strides), buffer->data() + first * item_bytes, owner);
  py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return view;
}

/// A read-only NumPy array of `length` items viewing `buffer` from item `first`, as ViewShaped; empty when `buffer` is
/// null.
py::array View(const std::shared_ptr<Buffer>& buffer, const std::string& dtype, int64_t item_bytes, int64_t first,
               int64_t length) {
  if (buffer == nullptr) return py::array(py::dtype(dtype), std::vector<py::ssize_t>{0});
  return ViewShaped(buffer, dtype, item_bytes, first, {length});
}

/// The NumPy dtype of a fixed-width type whose values NumPy can view as they lie ("<i8",
/// "<M8[ms]"); empty when there is none.
std::string ViewDtype(const DataType& type) {
  static const char* const kUnits[] = {"s", "ms", "us", "ns"};
  switch (type.id()) {
    case TypeId::kInt8: return "<i1";
    case TypeId::kInt16: return "<i2";
    case TypeId::kInt32: return "<i4";
    case TypeId::kInt64: return "<i8";
    case TypeId::kUInt8: return "<u1";
    case TypeId::kUInt16: return "<u2";
    case TypeId::kUInt32: return "<u4";
    case TypeId::kUInt64: return "<u8";
    case TypeId::kFloat16: return "<f2";
    case TypeId::kFloat32: return "<f4";
    case TypeId::kFloat64: return "<f8";
    case TypeId::kDate64: return "<M8[ms]";
    case TypeId::kTimestamp: return std::string("<M8[") + kUnits[static_cast<int>(type.params().unit)] + "]";
    case TypeId::kDuration: return std::string("<m8[") + kUnits[static_cast<int>(type.params().unit)] + "]";
    default: return "";
  }
}

/// Where the rows of a list or binary column lie when they all have the same length.
struct UniformRows {
  int64_t first = 0;  ///< the first row's first slot in the values (child slot, or byte of the data buffer)
  int64_t width = 0;  ///< the length of every row
};

/// The UniformRows of `data`, a list or binary column whose int32 or int64 offsets are its buffer 1, when it has rows,
/// none of them null, all of the same length of at least 1; std::nullopt otherwise.
template <typename Offset>
std::optional<UniformRows> Uniform(const ArrayData& data) {
  if (data.length == 0 || data.null_count != 0) return std::nullopt;
  const Offset* offsets = reinterpret_cast<const Offset*>(data.buffers[1]->data()) + data.offset;
  const Offset width = offsets[1] - offsets[0];
  if (width < 1) return std::nullopt;
  for (int64_t i = 1; i < data.length; ++i) {
    if (offsets[i + 1] - offsets[i] != width) return std::nullopt;
  }
  return UniformRows{static_cast<int64_t>(offsets[0]), static_cast<int64_t>(width)};
}

/// True where element i of `data` is null.
py::array_t<bool> NullMask(const ArrayData& data) {
  py::array_t<bool> mask(data.length);
  bool* out = mask.mutable_data();
  const uint8_t* validity = data.validity();
  const bool all_null = data.type->id() == TypeId::kNull;
  for (int64_t i = 0; i < data.length; ++i) {
    out[i] = all_null || (validity != nullptr && !bit_util::GetBit(validity, data.offset + i));
  }
  return mask;
}

/// `values` masked where `data` holds nulls; `values` itself when it holds none.
py::object Masked(const ArrayData& data, py::object values) {
  if (data.null_count == 0) return values;
  return py::module_::import("numpy.ma").attr("MaskedArray")(values, py::arg("mask") = NullMask(data),
                                                             py::arg("copy") = false);
}

/// An object array of `data.length` items, item(slot) for each valid element (its slot counts from the buffers'
/// start), None for nulls.
template <typename Item>
py::object Objects(const ArrayData& data, Item item) {
  py::array values(py::dtype("O"), std::vector<py::ssize_t>{data.length});
  const uint8_t* validity = data.validity();
  auto** out = static_cast<PyObject**>(values.mutable_data());
  for (int64_t i = 0; i < data.length; ++i) {
    py::object value = validity == nullptr || bit_util::GetBit(validity, data.offset + i) ? item(data.offset + i)
                                                                                           : py::none();
    Py_XDECREF(out[i]);
    out[i] = value.release().ptr();
  }
  return values;
}

/// Variable-width values (int32 or int64 offsets) as an object array of str (`text`) or bytes; None for nulls.
template <typename Offset>
py::object Strings(const ArrayData& data, bool text) {
  const auto* offsets = reinterpret_cast<const Offset*>(data.buffers[1]->data());
  const char* bytes = data.buffers[2] ? reinterpret_cast<const char*>(data.buffers[2]->data()) : "";
  return Objects(data, [&](int64_t slot) -> py::object {
    const char* begin = bytes + offsets[slot];
    const auto size = static_cast<size_t>(offsets[slot + 1] - offsets[slot]);
    return text ? py::object(py::str(begin, size)) : py::object(py::bytes(begin, size));
  });
}

/// fixed_size_binary values as an object array of bytes; None for nulls.
py::object FixedBytes(const ArrayData& data) {
  const int64_t width = data.type->params().width;
  const char* bytes = data.buffers[1] ? reinterpret_cast<const char*>(data.buffers[1]->data()) : "";
  return Objects(data, [&](int64_t slot) -> py::object {
    return py::bytes(bytes + slot * width, static_cast<size_t>(width));
  });
}

/// The null mask of `data` (True = null), or None when it holds no nulls.
py::object MaskOrNone(const ArrayData& data) {
  return data.null_count == 0 ? py::none() : py::object(NullMask(data));
}

/// recflow.ListColumn (MapColumn for a map) of `values` and `offsets` with `data`'s null mask.
py::object ListColumnOf(const ArrayData& data, const py::object& values, const py::object& offsets) {
  const char* kind = data.type->id() == TypeId::kMap ? "MapColumn" : "ListColumn";
  return py::module_::import("recflow._columns").attr(kind)(values, offsets, MaskOrNone(data));
}

/// A struct column as a recflow.StructColumn: each member converted as a column (the rows of this
/// slice), and the struct's own null mask.
py::object Structs(const ArrayData& data, const std::string& name, NumpyOptions options) {
  py::dict fields;
  const std::vector<FieldPtr>& members = data.type->fields();
  for (size_t i = 0; i < members.size(); ++i) {
    const std::string& member = members[i]->name();
    fields[py::str(member)] = ToNumpy(data.children[i]->Slice(data.offset, data.length), name + "." + member, options);
  }
  return py::module_::import("recflow._columns").attr("StructColumn")(fields, MaskOrNone(data));
}

/// A list, large_list or fixed_size_list column whose rows are UniformRows of values NumPy views (no null among them)
/// as a read-only rows × width view on the values (NumpyOptions::dense_uniform_lists); None otherwise.
py::object DenseList(const ArrayData& data) {
  const ArrayData& values = *data.children[0];
  const std::string dtype = ViewDtype(*values.type);
  if (dtype.empty() || values.null_count != 0) return py::none();
  std::optional<UniformRows> rows;
  switch (data.type->id()) {
    case TypeId::kList: rows = Uniform<int32_t>(data); break;
    case TypeId::kLargeList: rows = Uniform<int64_t>(data); break;
    case TypeId::kFixedSizeList: {
      const int64_t width = data.type->params().width;
      if (data.length > 0 && data.null_count == 0 && width > 0) rows = UniformRows{data.offset * width, width};
      break;
    }
    default: break;  // a map's entries are structs
  }
  if (!rows.has_value()) return py::none();
  return ViewShaped(values.buffers[1], dtype, values.type->bit_width() / 8, values.offset + rows->first,
                    {data.length, rows->width});
}

/// A list or map column as a ListColumn or MapColumn: the whole child converted, the offsets of this slice (absolute
/// positions in the child); or as DenseList makes it, when `options` asks and it can.
py::object Lists(const ArrayData& data, const std::string& name, NumpyOptions options) {
  if (options.dense_uniform_lists) {
    py::object dense = DenseList(data);
    if (!dense.is_none()) return dense;
  }
  py::object offsets;
  switch (data.type->id()) {
    case TypeId::kList:
    case TypeId::kMap: offsets = View(data.buffers[1], "<i4", 4, data.offset, data.length + 1); break;
    case TypeId::kLargeList: offsets = View(data.buffers[1], "<i8", 8, data.offset, data.length + 1); break;
    default: {  // fixed_size_list
      const int64_t size = data.type->params().width;
      offsets = py::module_::import("numpy").attr("arange")(data.offset * size, (data.offset + data.length) * size + 1,
                                                            size, py::arg("dtype") = "int64");
    }
  }
  return ListColumnOf(data, ToNumpy(data.children[0], name + ".item", options), offsets);
}

/// A binary column (int32 or int64 offsets) as a ListColumn of uint8 values viewing its data buffer; with
/// `dense_uniform` and UniformRows, a read-only rows × width uint8 view on that buffer.
template <typename Offset>
py::object ByteLists(const ArrayData& data, bool dense_uniform) {
  if (dense_uniform) {
    if (const std::optional<UniformRows> rows = Uniform<Offset>(data)) {
      return ViewShaped(data.buffers[2], "<u1", 1, rows->first, {data.length, rows->width});
    }
  }
  constexpr int64_t offset_bytes = sizeof(Offset);
  const char* offset_dtype = offset_bytes == 4 ? "<i4" : "<i8";
  const py::object offsets = View(data.buffers[1], offset_dtype, offset_bytes, data.offset, data.length + 1);
  const int64_t bytes = data.buffers[2] ? data.buffers[2]->size() : 0;
  return ListColumnOf(data, View(data.buffers[2], "<u1", 1, 0, bytes), offsets);
}

}  // namespace


py::object ToNumpy(const std::shared_ptr<ArrayData>& column, const std::string& name, NumpyOptions options) {
  const ArrayData& data = *column;
  const DataType& type = *data.type;
  const std::string view = ViewDtype(type);
  if (!view.empty()) {
    return Masked(data, View(data.buffers[1], view, type.bit_width() / 8, data.offset, data.length));
  }
  switch (type.id()) {
    case TypeId::kBool: {
      py::array_t<bool> values(data.length);
      bool* out = values.mutable_data();
      const uint8_t* bits = data.buffers[1] ? data.buffers[1]->data() : nullptr;
      for (int64_t i = 0; i < data.length; ++i) out[i] = bits != nullptr && bit_util::GetBit(bits, data.offset + i);
      return Masked(data, std::move(values));
    }
    case TypeId::kDate32: {
      const py::array days = View(data.buffers[1], "<i4", 4, data.offset, data.length);
      return Masked(data, days.attr("astype")("<M8[D]"));
    }
    case TypeId::kNull: return Masked(data, py::array(py::dtype("O"), std::vector<py::ssize_t>{data.length}));
    case TypeId::kUtf8: return Strings<int32_t>(data, true);
    case TypeId::kBinary:
      return options.bytes_as_lists ? ByteLists<int32_t>(data, options.dense_uniform_lists) : Strings<int32_t>(data, false);
    case TypeId::kLargeUtf8: return Strings<int64_t>(data, true);
    case TypeId::kLargeBinary:
      return options.bytes_as_lists ? ByteLists<int64_t>(data, options.dense_uniform_lists)
                                    : Strings<int64_t>(data, false);
    case TypeId::kFixedSizeBinary: return FixedBytes(data);
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList:
    case TypeId::kMap: return Lists(data, name, options);
    case TypeId::kStruct: return Structs(data, name, options);
    case TypeId::kDictionary: {
      const py::object values = ToNumpy(data.dictionary, name, options);
      const py::object indices =
          ToNumpy(ArrayData::Make(type.params().index_type, data.length, data.buffers, 0, data.offset), name,
                  NumpyOptions());
      const py::object taken = py::module_::import("numpy").attr("take")(values, indices, py::arg("mode") = "clip");
      return Masked(data, taken);
    }
    default:
      ThrowIfError(Status::TypeError("column '" + name + "' of type " + type.ToString() +
                                     " has no NumPy form in recflow yet (read it through __arrow_c_stream__)"));
      return py::none();
  }
}

py::dict ToNumpy(const RecordBatch& batch, NumpyOptions options) {
  py::dict columns;
  for (int i = 0; i < batch.num_columns(); ++i) {
    const std::string& name = batch.schema()->field(i)->name();
    columns[py::str(name)] = ToNumpy(batch.column_data(i), name, options);
  }
  return columns;
}

}  // namespace recflow::python
