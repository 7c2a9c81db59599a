// Event time on the streaming model's clock: epoch milliseconds, the end of time, saturating sums.
#pragma once

#include <cstdint>
#include <limits>

namespace recflow::pipeline::window {

/// A point in event or processing time, or a duration: milliseconds (epoch for points).
using Millis = int64_t;

/// The earliest event time a row may carry (Beam's TIMESTAMP_MIN_VALUE, in milliseconds).
inline constexpr Millis kMinTime = -(int64_t{1} << 62);
/// The watermark of an input that has ended: every window's end is before it.
inline constexpr Millis kEndOfTime = std::numeric_limits<int64_t>::max();
/// The end (exclusive) of the global window; its last timestamp is one less.
inline constexpr Millis kGlobalWindowEnd = int64_t{1} << 62;

/// a + b, clamped to [kMinTime, kEndOfTime] instead of overflowing (a window's end plus its
/// allowed lateness near the end of time).
inline Millis SaturatingAdd(Millis a, Millis b) {
  Millis sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? kEndOfTime : kMinTime;
  return sum;
}

}  // namespace recflow::pipeline::window
