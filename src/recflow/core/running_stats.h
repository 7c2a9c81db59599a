// RunningStats: count, mean, M2, min and max of values added one at a time (Welford) and merged in parts (Chan et al.).
#pragma once

#include <cstdint>
#include <limits>

namespace recflow {

/// Running statistics of the values updated with: Welford's update per value, Chan et al.'s
/// pairwise formula to merge two parts, so a pass can run in parts on any threads and merging
/// the parts in a fixed order gives the same result every time. The accumulation core of
/// `ops::Moments` (a column's statistics for scaling) and `raster::ValueStats` (a raster's).
struct RunningStats {
  int64_t count = 0;  ///< values seen
  double mean = 0;    ///< their mean (0 when count is 0)
  double m2 = 0;      ///< the sum of squared deviations from the mean
  double min = std::numeric_limits<double>::infinity();   ///< smallest value (+inf when none)
  double max = -std::numeric_limits<double>::infinity();  ///< largest value (-inf when none)

  /// Accumulates `x` (not NaN: callers leave their missing values out).
  void Update(double x) {
    ++count;
    const double delta = x - mean;
    mean += delta / static_cast<double>(count);
    m2 += delta * (x - mean);
    if (x < min) min = x;
    if (x > max) max = x;
  }

  /// Accumulates another part, as if its values had been updated with here.
  void Merge(const RunningStats& other) {
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

  /// Population variance m2 / count (0 when count is 0).
  double variance() const { return count > 0 ? m2 / static_cast<double>(count) : 0.0; }
};

}  // namespace recflow
