// Moments: Welford's update, Chan's pairwise merge.
#include "recflow/ops/columns/moments.h"

#include <cmath>

#include "recflow/ops/columns/column_util_internal.h"

namespace recflow::ops {

void Moments::Update(double x) {
  ++count;
  const double delta = x - mean;
  mean += delta / static_cast<double>(count);
  m2 += delta * (x - mean);
  if (x < min) min = x;
  if (x > max) max = x;
}

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

void Moments::Merge(const Moments& other) {
  if (other.count == 0) return;
  if (count == 0) {
    *this = other;
    return;
  }
  const double n_a = static_cast<double>(count);
  const double n_b = static_cast<double>(other.count);
  const double n = n_a + n_b;
  const double delta = other.mean - mean;
  mean += delta * n_b / n;
  m2 += other.m2 + delta * delta * n_a * n_b / n;
  count += other.count;
  if (other.min < min) min = other.min;
  if (other.max > max) max = other.max;
}

double Moments::stddev() const { return std::sqrt(variance()); }

}  // namespace recflow::ops
