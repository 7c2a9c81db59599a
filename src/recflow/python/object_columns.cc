// StringBuffers and ObjectNode: Python items laid out as Arrow buffers in one native pass (no per-item Python code).
#include "recflow/python/object_columns.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>
#include <string_view>
#include <vector>

namespace py = pybind11;

namespace recflow::python {

namespace {

/// What an object column's item is, in recflow._nodes' words.
enum class Kind : uint8_t { kStr, kBytes, kList, kDict, kBool, kInt, kFloat, kOther };

const char* KindName(Kind kind) {
  static const char* const kNames[] = {"str", "bytes", "list", "dict", "bool", "int", "float"};
  return kNames[static_cast<int>(kind)];
}

/// The last component of `item`'s type name ("NAType" for pandas._libs.missing.NAType).
std::string_view TypeName(PyObject* item) {
  const std::string_view full = Py_TYPE(item)->tp_name;
  const size_t dot = full.rfind('.');
  return dot == std::string_view::npos ? full : full.substr(dot + 1);
}

/// None, a float NaN (pandas' missing value in object columns), pandas.NA or NaT.
bool IsNullItem(PyObject* item) {
  if (item == Py_None) return true;
  if (PyFloat_Check(item)) return std::isnan(PyFloat_AS_DOUBLE(item));
  const std::string_view type = TypeName(item);
  return type == "NAType" || type == "NaTType";
}

/// NumPy's scalar types an item may be an instance of.
struct NumpyScalars {
  py::object bool_, integer, floating, ndarray;
  NumpyScalars() {
    const py::module_ numpy = py::module_::import("numpy");
    bool_ = numpy.attr("bool_");
    integer = numpy.attr("integer");
    floating = numpy.attr("floating");
    ndarray = numpy.attr("ndarray");
  }
  static bool Is(PyObject* item, const py::object& type) {
    const int is = PyObject_IsInstance(item, type.ptr());
    if (is < 0) throw py::error_already_set();
    return is == 1;
  }
};

Kind KindOf(PyObject* item, const NumpyScalars& numpy) {
  if (PyUnicode_Check(item)) return Kind::kStr;
  if (PyBytes_Check(item) || PyByteArray_Check(item) || PyMemoryView_Check(item)) return Kind::kBytes;
  if (PyList_Check(item) || PyTuple_Check(item) || NumpyScalars::Is(item, numpy.ndarray)) return Kind::kList;
  if (PyDict_Check(item)) return Kind::kDict;
  if (PyBool_Check(item) || NumpyScalars::Is(item, numpy.bool_)) return Kind::kBool;
  if (PyLong_Check(item) || NumpyScalars::Is(item, numpy.integer)) return Kind::kInt;
  if (PyFloat_Check(item) || NumpyScalars::Is(item, numpy.floating)) return Kind::kFloat;
  return Kind::kOther;
}

/// utf8/binary offsets and data of `items`, empty where `is_null` (may be null) says so.
py::tuple LayOutStrings(const std::vector<PyObject*>& items, const bool* is_null, bool text, int64_t int32_limit) {
  const size_t rows = items.size();
  std::vector<std::string_view> values(rows);
  std::vector<py::object> held;  // bytes made from bytes-like items, alive until copied
  int64_t total = 0;
  for (size_t i = 0; i < rows; ++i) {
    if (is_null != nullptr && is_null[i]) continue;
    PyObject* item = items[i];
    if (text) {
      Py_ssize_t size = 0;
      const char* utf8 = PyUnicode_AsUTF8AndSize(item, &size);
      if (utf8 == nullptr) throw py::error_already_set();
      values[i] = {utf8, static_cast<size_t>(size)};
    } else {
      if (!PyBytes_Check(item)) {
        held.push_back(py::reinterpret_steal<py::object>(PyObject_Bytes(item)));
        if (!held.back()) throw py::error_already_set();
        item = held.back().ptr();
      }
      values[i] = {PyBytes_AS_STRING(item), static_cast<size_t>(PyBytes_GET_SIZE(item))};
    }
    total += static_cast<int64_t>(values[i].size());
  }
  py::array_t<uint8_t> data(static_cast<py::ssize_t>(total));
  auto* out = data.mutable_data();
  const bool large = total > std::min<int64_t>(int32_limit, std::numeric_limits<int32_t>::max());
  py::array offsets = large ? py::array(py::array_t<int64_t>(static_cast<py::ssize_t>(rows + 1)))
                            : py::array(py::array_t<int32_t>(static_cast<py::ssize_t>(rows + 1)));
  auto* ends64 = static_cast<int64_t*>(offsets.mutable_data());
  auto* ends32 = static_cast<int32_t*>(offsets.mutable_data());
  int64_t end = 0;
  for (size_t i = 0; i <= rows; ++i) {
    if (i > 0 && !values[i - 1].empty()) {  // a null's or an empty value's view has no bytes to copy
      std::memcpy(out + end, values[i - 1].data(), values[i - 1].size());
      end += static_cast<int64_t>(values[i - 1].size());
    }
    if (large) {
      ends64[i] = end;
    } else {
      ends32[i] = static_cast<int32_t>(end);
    }
  }
  return py::make_tuple(std::move(offsets), std::move(data));
}

/// `item` as an int64; OverflowError naming `name` when it does not fit.
int64_t Int64Of(PyObject* item, const std::string& name) {
  const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(item));
  if (!index) throw py::error_already_set();
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (value == -1 && PyErr_Occurred() != nullptr) throw py::error_already_set();
  if (overflow != 0) {
    PyErr_SetString(PyExc_OverflowError,
                    ("column '" + name + "': " + std::string(py::str(index)) + " does not fit in int64").c_str());
    throw py::error_already_set();
  }
  return value;
}

/// A column node of `kind` over `buffers`, nulls where `is_null` is (the validity bitmap).
py::tuple Node(const char* kind, const bool* is_null, size_t rows, int64_t null_count, py::list buffers) {
  py::object validity = py::none();
  if (null_count > 0) {
    py::array_t<uint8_t> bits(static_cast<py::ssize_t>((rows + 7) / 8));
    uint8_t* out = bits.mutable_data();
    std::memset(out, 0, (rows + 7) / 8);
    for (size_t i = 0; i < rows; ++i) out[i / 8] |= static_cast<uint8_t>(!is_null[i]) << (i % 8);
    validity = std::move(bits);
  }
  return py::make_tuple(kind, rows, null_count, std::move(validity), std::move(buffers), py::list(), 0);
}

/// The values of scalar items (bool, int or float) as a NumPy array of `T`, 0 where null.
template <typename T, typename Convert>
py::array_t<T> Scalars(const std::vector<PyObject*>& items, const bool* is_null, Convert convert) {
  py::array_t<T> values(static_cast<py::ssize_t>(items.size()));
  T* out = values.mutable_data();
  for (size_t i = 0; i < items.size(); ++i) out[i] = is_null[i] ? T{} : convert(items[i]);
  return values;
}

}  // namespace

py::tuple StringBuffers(const py::list& items, const py::object& mask, bool text, int64_t int32_limit) {
  std::vector<PyObject*> objects(static_cast<size_t>(py::len(items)));
  for (size_t i = 0; i < objects.size(); ++i) objects[i] = PyList_GET_ITEM(items.ptr(), static_cast<Py_ssize_t>(i));
  if (mask.is_none()) return LayOutStrings(objects, nullptr, text, int32_limit);
  const py::array_t<bool, py::array::c_style | py::array::forcecast> flags(mask);
  return LayOutStrings(objects, flags.data(), text, int32_limit);
}

py::tuple ObjectNode(const std::string& name, const py::array& values, const py::object& mask, int64_t int32_limit) {
  if (values.ndim() != 1 || values.dtype().kind() != 'O') {
    throw py::type_error("column '" + name + "': an object column is a 1-D array of dtype object");
  }
  const auto rows = static_cast<size_t>(values.shape(0));
  std::vector<PyObject*> items(rows);
  const auto* base = static_cast<const char*>(values.data());
  for (size_t i = 0; i < rows; ++i) {
    std::memcpy(&items[i], base + static_cast<py::ssize_t>(i) * values.strides(0), sizeof(PyObject*));
  }
  py::array_t<bool> nulls(static_cast<py::ssize_t>(rows));
  bool* is_null = nulls.mutable_data();
  if (mask.is_none()) {
    std::fill(is_null, is_null + rows, false);
  } else {
    const py::array_t<bool, py::array::c_style | py::array::forcecast> given(mask);
    if (static_cast<size_t>(given.size()) != rows) {
      throw py::value_error("column '" + name + "': its mask has " + std::to_string(given.size()) + " entries for " +
                            std::to_string(rows) + " values");
    }
    std::copy(given.data(), given.data() + rows, is_null);
  }
  const NumpyScalars numpy;
  int64_t null_count = 0;
  std::set<std::string> kinds;  // every kind of the present items, by name (sorted as Python sorts them)
  Kind kind = Kind::kOther;
  for (size_t i = 0; i < rows; ++i) {
    if (!is_null[i] && IsNullItem(items[i])) is_null[i] = true;
    if (is_null[i]) {
      ++null_count;
      continue;
    }
    const Kind item_kind = KindOf(items[i], numpy);
    const std::string item_name(item_kind == Kind::kOther ? TypeName(items[i]) : KindName(item_kind));
    if (kinds.insert(item_name).second) kind = item_kind;
  }
  if (kinds.size() > 1) {
    py::list names;
    for (const std::string& kind_name : kinds) names.append(py::str(kind_name));
    throw py::type_error("column " + std::string(py::repr(py::str(name))) +
                         ": an object column holds one kind of value, not " + std::string(py::repr(names)));
  }
  const py::object mask_out = null_count > 0 ? py::object(nulls) : py::none();
  if (kinds.empty()) {
    return py::make_tuple("null", mask_out,
                          py::make_tuple("null", rows, rows, py::none(), py::list(), py::list(), 0));
  }
  if (kind == Kind::kOther) {
    throw py::type_error("column " + std::string(py::repr(py::str(name))) + ": recflow cannot write items of type " +
                         *kinds.begin());
  }
  py::object node = py::none();
  switch (kind) {
    case Kind::kStr:
    case Kind::kBytes: {
      const bool text = kind == Kind::kStr;
      const py::tuple buffers = LayOutStrings(items, is_null, text, int32_limit);
      const bool large = py::array(buffers[0]).itemsize() == 8;
      const std::string type = std::string(large ? "large_" : "") + (text ? "utf8" : "binary");
      node = Node(type.c_str(), is_null, rows, null_count, py::list(buffers));
      break;
    }
    case Kind::kBool: {
      py::array_t<uint8_t> bits(static_cast<py::ssize_t>((rows + 7) / 8));
      uint8_t* out = bits.mutable_data();
      std::memset(out, 0, (rows + 7) / 8);
      for (size_t i = 0; i < rows; ++i) {
        if (is_null[i]) continue;
        const int truth = PyObject_IsTrue(items[i]);
        if (truth < 0) throw py::error_already_set();
        out[i / 8] |= static_cast<uint8_t>(truth) << (i % 8);
      }
      py::list buffers;
      buffers.append(std::move(bits));
      node = Node("bool", is_null, rows, null_count, std::move(buffers));
      break;
    }
    case Kind::kInt: {
      py::list buffers;
      buffers.append(Scalars<int64_t>(items, is_null, [&](PyObject* item) { return Int64Of(item, name); }));
      node = Node("int64", is_null, rows, null_count, std::move(buffers));
      break;
    }
    case Kind::kFloat: {
      py::list buffers;
      buffers.append(Scalars<double>(items, is_null, [](PyObject* item) {
        const double value = PyFloat_AsDouble(item);
        if (value == -1.0 && PyErr_Occurred() != nullptr) throw py::error_already_set();
        return value;
      }));
      node = Node("float64", is_null, rows, null_count, std::move(buffers));
      break;
    }
    default: break;  // lists and dicts: laid out by recflow._nodes
  }
  return py::make_tuple(KindName(kind), mask_out, std::move(node));
}

}  // namespace recflow::python
