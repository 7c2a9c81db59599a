// RowValue: one scalar of a row (null, bool, integer, float or bytes), read from and appended to columns.
#pragma once

#include <cstdint>
#include <string>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/builder.h"
#include "recflow/core/result.h"
#include "recflow/ops/columns/scalar.h"

namespace recflow::pipeline {

/// A scalar value: null, bool, any integer, any float, or bytes/text (the ops' Scalar).
using RowValue = ops::Scalar;

/// Element `i` of a bool, integer (uint64 above INT64_MAX is a TypeError), float, utf8 or
/// binary column (any width, large variants included); std::monostate for a null.
Result<RowValue> ReadRowValue(const ArrayData& data, int64_t i);

/// OK for the column types row functions build: bool, integers, float32, float64, binary,
/// utf8; TypeError naming the type otherwise.
Status CheckRowValueType(const DataType& type);

/// OK when AppendRowValue would take `value` for a column of `type` (same rules).
Status CheckRowValue(const DataType& type, const RowValue& value);

/// Appends `value` to `builder` (bool, integer, float, utf8 or binary column): integers are
/// range-checked, floats convert to integers only when integral and in range, and text goes to
/// utf8 or binary; anything else is a TypeError naming both types.
Status AppendRowValue(ArrayBuilder* builder, const RowValue& value);

}  // namespace recflow::pipeline
