// FillNull: the column and the prepared fill value concatenated, then taken row by row.
#include "recflow/ops/columns/fill_null.h"

#include <vector>

#include "recflow/columnar/concatenate.h"
#include "recflow/columnar/take.h"
#include "recflow/ops/columns/column_util_internal.h"

namespace recflow::ops {

Result<NullFiller> NullFiller::Make(const Scalar& value, const DataTypePtr& type) {
  if (std::holds_alternative<std::monostate>(value)) return Status::InvalidArgument("fill_null: the fill value is null");
  ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> fill, ScalarToArray(value, type));
  return NullFiller(std::move(fill));
}

Result<std::shared_ptr<ArrayData>> NullFiller::Fill(const std::shared_ptr<ArrayData>& column) const {
  if (!column->type->Equals(*fill_->type)) {
    return Status::InvalidArgument("fill_null: a " + column->type->ToString() + " column, not " +
                                   fill_->type->ToString());
  }
  if (column->null_count == 0) return column;
  ASSIGN_OR_RETURN(auto both, Concatenate({column, fill_}));
  std::vector<int64_t> indices(static_cast<size_t>(column->length));
  for (int64_t i = 0; i < column->length; ++i) {
    indices[static_cast<size_t>(i)] = internal::IsValidAt(*column, i) ? i : column->length;
  }
  return Take(*both, indices);
}

Result<std::shared_ptr<ArrayData>> FillNull(const ArrayData& column, const Scalar& value) {
  ASSIGN_OR_RETURN(NullFiller filler, NullFiller::Make(value, column.type));
  return filler.Fill(std::make_shared<ArrayData>(column));
}

}  // namespace recflow::ops
