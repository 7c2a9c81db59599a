// Moments: a mergeable accumulator of count, mean, M2, min and max of a numeric column.
#pragma once

#include <cstdint>
#include <limits>

#include "recflow/columnar/array_data.h"
#include "recflow/core/status.h"

namespace recflow::ops {

/// Statistics of the non-null values of a numeric column, accumulated batch by batch (Welford)
/// and merged across partial results (Chan et al.), so an analysis pass can run in parallel:
/// Add() the batches of each part, Merge() the parts, then scale with the result.
struct Moments {
  int64_t count = 0;  ///< non-null values seen
  double mean = 0;    ///< their mean (0 when count is 0)
  double m2 = 0;      ///< the sum of squared deviations from the mean
  double min = std::numeric_limits<double>::infinity();   ///< smallest value (+inf when none; NaN never)
  double max = -std::numeric_limits<double>::infinity();  ///< largest value (-inf when none; NaN never)

  /// Accumulates one value.
  void Update(double x);
  /// Accumulates the non-null values of `column` (integers, float32, float64, as float64);
  /// TypeError for other types.
  Status Add(const ArrayData& column);
  /// Accumulates another partial result, as if its values had been added here.
  void Merge(const Moments& other);
  /// Population variance m2 / count (0 when count is 0).
  double variance() const { return count > 0 ? m2 / static_cast<double>(count) : 0.0; }
  /// Population standard deviation, as scikit-learn's StandardScaler uses (0 when count is 0).
  double stddev() const;
};

}  // namespace recflow::ops
