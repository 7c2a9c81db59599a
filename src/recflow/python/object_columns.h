// Python items as Arrow buffers in one native pass: string/bytes offsets + data, and object columns (NumPy dtype
// object, as pandas and map functions hand them) classified and laid out as recflow._nodes' column nodes.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>

namespace recflow::python {

/// The offsets and data buffers of a utf8/binary column of `items` (str, or bytes-like when not
/// `text`), an empty value where `mask` (None, or a bool array: True = null) is True: a tuple
/// (offsets, data) of NumPy arrays, int32 offsets unless the bytes pass `int32_limit` (2 GiB - 1
/// but in tests; then int64), uint8 data. Python errors (a str that is not valid Unicode, an item
/// of another type) raise.
pybind11::tuple StringBuffers(const pybind11::list& items, const pybind11::object& mask, bool text,
                              int64_t int32_limit);

/// One pass over the items of a 1-D object array `values` (column `name` in errors) and `mask`
/// (None or a bool array, True = null): (kind, mask, node) where
///  - mask: True where an item is null — masked, None, a float NaN, pandas.NA or NaT — or None
///    when nothing is;
///  - kind: what every other item is: "str", "bytes" (bytes, bytearray, memoryview), "list"
///    (list, tuple, ndarray), "dict", "bool" (bool, numpy.bool_), "int" (int, numpy.integer),
///    "float" (float, numpy.floating); "null" when every item is;
///  - node: the column node (see ImportColumn) of a null, str, bytes, bool, int (int64) or
///    float (float64) column; None for lists and dicts, which recflow._nodes lays out.
/// TypeError naming the column and the kinds when the items are of more than one kind; an int
/// outside int64 raises OverflowError; a str that is not valid Unicode UnicodeEncodeError.
pybind11::tuple ObjectNode(const std::string& name, const pybind11::array& values, const pybind11::object& mask,
                           int64_t int32_limit);

}  // namespace recflow::python
