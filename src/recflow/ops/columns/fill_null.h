// FillNull: replace the nulls of a column with one value.
#pragma once

#include <memory>

#include "recflow/columnar/array_data.h"
#include "recflow/core/result.h"
#include "recflow/ops/columns/scalar.h"

namespace recflow::ops {

/// `column` with every null replaced by `value`, converted to the column's type as
/// ScalarToArray does (text is parsed, so a pipeline file's "0" fills an int64 column with 0
/// and "2024-01-01" a date32 column). Any type Cast can build is accepted (numbers, bool,
/// utf8, binary, date32, timestamp); the result has no nulls. InvalidArgument when the value
/// does not convert or is null; a column without nulls is returned as is.
Result<std::shared_ptr<ArrayData>> FillNull(const ArrayData& column, const Scalar& value);

}  // namespace recflow::ops
