// Moments: a mergeable accumulator of count, mean, M2, min and max of a numeric column.
#pragma once

#include "recflow/columnar/array_data.h"
#include "recflow/core/running_stats.h"
#include "recflow/core/status.h"

namespace recflow::ops {

/// Statistics of the non-null values of a numeric column, accumulated batch by batch (Welford)
/// and merged across partial results (Chan et al.), so an analysis pass can run in parallel:
/// Add() the batches of each part, Merge() the parts, then scale with the result. The fields
/// and the arithmetic are RunningStats' (count, mean, m2, min, max; min/max ±inf when none).
struct Moments : RunningStats {
  /// Accumulates the non-null values of `column` (integers, float32, float64, as float64);
  /// TypeError for other types.
  Status Add(const ArrayData& column);
  /// Accumulates another partial result, as if its values had been added here.
  void Merge(const Moments& other) { RunningStats::Merge(other); }
  /// Population standard deviation, as scikit-learn's StandardScaler uses (0 when count is 0).
  double stddev() const;
};

}  // namespace recflow::ops
