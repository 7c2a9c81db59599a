// Moments: a numeric column's non-null values into RunningStats.
#include "recflow/ops/columns/moments.h"

#include <cmath>

#include "recflow/ops/columns/column_util_internal.h"

namespace recflow::ops {

Status Moments::Add(const ArrayData& column) {
  const bool numeric = internal::VisitNumericType(column.type->id(), [&](auto tag) {
    using T = decltype(tag);
    const T* values = column.GetValues<T>(1);
    for (int64_t i = 0; i < column.length; ++i) {
      if (internal::IsValidAt(column, i)) Update(static_cast<double>(values[i]));
    }
  });
  if (!numeric) return Status::TypeError("moments: column is " + column.type->ToString() + ", not a number");
  return Status::OK();
}

double Moments::stddev() const { return std::sqrt(variance()); }

}  // namespace recflow::ops
