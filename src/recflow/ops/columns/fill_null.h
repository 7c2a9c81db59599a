// FillNull: replace the nulls of a column with one value.
#pragma once

#include <memory>

#include "recflow/columnar/array_data.h"
#include "recflow/core/result.h"
#include "recflow/ops/columns/scalar.h"

namespace recflow::ops {

/// A fill value converted once for columns of one type; fills the nulls of any number of them.
class NullFiller {
 public:
  /// `value` converted to `type` as ScalarToArray does (text is parsed, so a pipeline file's
  /// "0" fills an int64 column with 0 and "2024-01-01" a date32 column). Any type Cast can
  /// build is accepted (numbers, bool, utf8, binary, date32, timestamp). InvalidArgument when
  /// the value does not convert or is null.
  static Result<NullFiller> Make(const Scalar& value, const DataTypePtr& type);

  /// `column` with every null replaced by the fill value (the result has no nulls); `column`
  /// itself, untouched, when it has no nulls. InvalidArgument when it is not of the type.
  Result<std::shared_ptr<ArrayData>> Fill(const std::shared_ptr<ArrayData>& column) const;

 private:
  explicit NullFiller(std::shared_ptr<ArrayData> fill) : fill_(std::move(fill)) {}

  std::shared_ptr<ArrayData> fill_;  // one element: the value, of the column type
};

/// `column` with every null replaced by `value`: NullFiller::Make(value, column.type) then
/// Fill, with the same errors (a value that does not convert fails even for a column without
/// nulls); a column without nulls is returned as is.
Result<std::shared_ptr<ArrayData>> FillNull(const ArrayData& column, const Scalar& value);

}  // namespace recflow::ops
