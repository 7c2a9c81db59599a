// What a Python pipeline function returns, as columns of its step's output schema: each value laid out by
// recflow._nodes and imported by ImportColumn (the conversion recflow.write uses), then held to the column's type.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"

namespace recflow::python {

/// The field column `name` of value `value` gets when no schema names its type: the type
/// recflow.write gives it (see recflow._nodes.column_node), except that a 2-D array is a list
/// (not a fixed-size list: an empty batch's rows have no width) and an object column with no
/// value but None (as every column of the empty batch the output schema is learnt from) has the
/// type of `input`'s column of the same name. `input`'s field itself when it has that name and
/// type (its nullability kept), else a nullable field. TypeError naming the column when the type
/// cannot be told.
Result<FieldPtr> InferField(const std::string& name, pybind11::handle value, const Schema& input);

/// `value` as a column of `field`'s type, `rows` long: converted as recflow.write converts it
/// (arrays of Arrow's layout are wrapped, not copied: the buffer keeps them alive), then held to
/// the field: a 2-D array becomes a list (large_list) over the same values, a column of nothing
/// but nulls takes the field's type. Another type, another length, or nulls in a non-nullable
/// field are a TypeError naming the column. Python errors met converting raise
/// (py::error_already_set).
Result<std::shared_ptr<ArrayData>> FromNumpy(pybind11::handle value, const Field& field, int64_t rows);

}  // namespace recflow::python
