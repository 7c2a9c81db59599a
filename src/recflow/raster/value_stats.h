// ValueStats: exact count, min, max, mean and population standard deviation of values, NaN left out, mergeable (Welford, Chan).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace recflow::raster {

/// Running statistics of the valid (non-NaN) values added: Welford's update per value, Chan's
/// formula to merge two parts. Merging parts in a fixed order gives the same result every time.
class ValueStats {
 public:
  /// Adds `v` unless it is NaN.
  void Add(double v) {
    if (std::isnan(v)) return;
    ++n_;
    const double delta = v - mean_;
    mean_ += delta / static_cast<double>(n_);
    m2_ += delta * (v - mean_);
    lo_ = std::min(lo_, v);
    hi_ = std::max(hi_, v);
  }

  /// Adds the values `other` saw.
  void Merge(const ValueStats& other) {
    if (other.n_ == 0) return;
    if (n_ == 0) {
      *this = other;
      return;
    }
    const double n = static_cast<double>(n_ + other.n_);
    const double delta = other.mean_ - mean_;
    m2_ += other.m2_ + delta * delta * static_cast<double>(n_) * static_cast<double>(other.n_) / n;
    mean_ += delta * static_cast<double>(other.n_) / n;
    n_ += other.n_;
    lo_ = std::min(lo_, other.lo_);
    hi_ = std::max(hi_, other.hi_);
  }

  /// The number of valid values.
  int64_t count() const { return n_; }
  /// The smallest valid value; NaN when there is none (also for max, mean, std).
  double min() const { return n_ > 0 ? lo_ : kNaN; }
  double max() const { return n_ > 0 ? hi_ : kNaN; }
  double mean() const { return n_ > 0 ? mean_ : kNaN; }
  /// The population standard deviation.
  double std() const { return n_ > 0 ? std::sqrt(m2_ / static_cast<double>(n_)) : kNaN; }

 private:
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  int64_t n_ = 0;
  double mean_ = 0;
  double m2_ = 0;
  double lo_ = std::numeric_limits<double>::infinity();
  double hi_ = -std::numeric_limits<double>::infinity();
};

}  // namespace recflow::raster
