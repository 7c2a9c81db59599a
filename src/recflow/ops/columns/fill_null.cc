// FillNull: the column and the fill value concatenated, then taken row by row.
#include "recflow/ops/columns/fill_null.h"

#include <vector>

#include "recflow/columnar/concatenate.h"
#include "recflow/columnar/take.h"
#include "recflow/ops/columns/column_util_internal.h"

namespace recflow::ops {

Result<std::shared_ptr<ArrayData>> FillNull(const ArrayData& column, const Scalar& value) {
  if (std::holds_alternative<std::monostate>(value)) return Status::InvalidArgument("fill_null: the fill value is null");
  ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> fill, ScalarToArray(value, column.type));
  if (column.null_count == 0) return std::make_shared<ArrayData>(column);
  ASSIGN_OR_RETURN(auto both, Concatenate({column.Slice(0, column.length), fill}));
  std::vector<int64_t> indices(static_cast<size_t>(column.length));
  for (int64_t i = 0; i < column.length; ++i) {
    indices[static_cast<size_t>(i)] = internal::IsValidAt(column, i) ? i : column.length;
  }
  return Take(*both, indices);
}

}  // namespace recflow::ops
