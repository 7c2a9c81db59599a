// RowValue: one scalar of a row (null, bool, integer, float or bytes), read from and appended to columns.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

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

/// True for the column types whose values are bytes: binary, utf8, their large variants and
/// fixed-size binary.
bool HoldsBytes(const DataType& type);

/// OK for the column types row functions build: bool, integers, float32, float64, binary,
/// utf8; TypeError naming the type otherwise.
Status CheckRowValueType(const DataType& type);

/// A RowValue converted for a column of one type (see ConvertRowValue): the column's C value,
/// the bytes of a binary or utf8 value (a view of the RowValue's text), or std::monostate for a null.
using ConvertedValue = std::variant<std::monostate, bool, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
                                    uint64_t, float, double, std::string_view>;

/// `value` converted for a bool, integer, float, utf8 or binary column of `type`: integers are
/// range-checked, floats convert to integers only when integral and in range, and text goes to
/// utf8 or binary; anything else is a TypeError naming both types. A text result views
/// `value`'s string, so `value` must outlive it.
Result<ConvertedValue> ConvertRowValue(const DataType& type, const RowValue& value);

/// Appends `value`, converted by ConvertRowValue for the type of `builder`, to `builder`.
Status AppendConverted(ArrayBuilder* builder, const ConvertedValue& value);

}  // namespace recflow::pipeline
