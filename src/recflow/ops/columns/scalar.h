// Scalar: a typed constant from a pipeline file (fill values, filter literals) and its array form.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>

#include "recflow/columnar/array_data.h"
#include "recflow/core/result.h"

namespace recflow::ops {

/// A constant: null (monostate), bool, int64, float64 or text.
using Scalar = std::variant<std::monostate, bool, int64_t, double, std::string>;

/// "null", "true", "42", "1.5" or the text in single quotes (' and \ escaped with \), as filter
/// expressions write literals.
std::string ScalarToString(const Scalar& value);

/// A one-element array of `type` holding `value` converted as Cast converts a bool, int64,
/// float64 or utf8 column (so text is parsed: "42" → int64 42, "2024-01-31" → date32); a
/// null scalar gives a null element. InvalidArgument naming the value and type when it does
/// not convert.
Result<std::shared_ptr<ArrayData>> ScalarToArray(const Scalar& value, const DataTypePtr& type);

}  // namespace recflow::ops
