// ValueStats: exact count, min, max, mean and population standard deviation of values, NaN left out, mergeable (Welford, Chan).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "recflow/core/running_stats.h"

namespace recflow::raster {

/// Running statistics of the valid (non-NaN) values added (RunningStats: Welford's update per
/// value, Chan's formula to merge two parts). Merging parts in a fixed order gives the same
/// result every time.
class ValueStats {
 public:
  /// Adds `v` unless it is NaN.
  void Add(double v) {
    if (!std::isnan(v)) stats_.Update(v);
  }

  /// Adds the values `other` saw.
  void Merge(const ValueStats& other) { stats_.Merge(other.stats_); }

  /// The number of valid values.
  int64_t count() const { return stats_.count; }
  /// The smallest valid value; NaN when there is none (also for max, mean, std).
  double min() const { return stats_.count > 0 ? stats_.min : kNaN; }
  double max() const { return stats_.count > 0 ? stats_.max : kNaN; }
  double mean() const { return stats_.count > 0 ? stats_.mean : kNaN; }
  /// The population standard deviation.
  double std() const { return stats_.count > 0 ? std::sqrt(stats_.variance()) : kNaN; }

 private:
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  RunningStats stats_;
};

}  // namespace recflow::raster
