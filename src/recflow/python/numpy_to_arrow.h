// Python columns (NumPy arrays, masked arrays, ListColumns, sequences of str/bytes) turned into Arrow-layout columns:
// fixed-width values without a copy where NumPy's layout is Arrow's, the type inferred when nothing names it.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"

namespace recflow::python {

/// A reference to a Python object that may be dropped on any thread: the last owner takes the
/// GIL to release it. What native buffers viewing NumPy memory keep alive.
std::shared_ptr<const void> KeepAlive(pybind11::object object);

/// The field column `name` of value `value` gets when no schema names its type:
///  - a 1-D array: bool, int8..int64, uint8..uint64, float16/32/64 by its dtype, str (`U`)
///    utf8, bytes (`S`) binary; a masked array as its data;
///  - a 2-D array: list of its dtype's type (one list per row);
///  - a recflow.ListColumn: list of its values' type;
///  - an object array (or a list, taken as np.asarray takes it): the type of `input`'s column of
///    the same name, when there is one.
/// `input`'s field itself when it has that name and type (its nullability kept), else a
/// nullable field. TypeError naming the column for anything else.
Result<FieldPtr> InferField(const std::string& name, pybind11::handle value, const Schema& input);

/// `value` as a column of `field`'s type, `rows` long (TypeError naming the column when its
/// length differs): null (every value None or masked), bool, integers, float16/32/64 (a contiguous
/// array of the type's own dtype is viewed, not copied: the buffer keeps it alive), utf8/binary
/// (large too) from any sequence of str / bytes / None, list and large_list from a ListColumn, a
/// 2-D array or a sequence of arrays. A masked array's mask, and None in a sequence, are nulls; nulls in a non-nullable
/// field are a TypeError. Python errors met converting raise (py::error_already_set).
Result<std::shared_ptr<ArrayData>> FromNumpy(pybind11::handle value, const Field& field, int64_t rows);

}  // namespace recflow::python
