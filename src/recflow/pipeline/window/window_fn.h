// Window functions: fixed (with offset), sliding, sessions (merging) and the global window, as Beam defines them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/pipeline/window/event_time.h"

namespace recflow::pipeline::window {

/// An interval of event time [start, end); rows with start <= t < end belong to it.
struct Window {
  Millis start = 0;  ///< the first event time inside
  Millis end = 0;    ///< the first event time after it
  /// The last event time inside the window (Beam's maxTimestamp): end - 1.
  Millis max_timestamp() const { return end - 1; }
  /// True when the two windows share a point (touching windows do not: Beam's intersects).
  bool Intersects(const Window& other) const { return start < other.end && other.start < end; }
  bool operator==(const Window& other) const = default;
};

/// How rows are assigned to windows.
struct WindowFn {
  enum class Kind : uint8_t { kGlobal, kFixed, kSliding, kSessions };
  Kind kind = Kind::kGlobal;
  Millis size = 0;    ///< fixed and sliding: the window's length
  Millis period = 0;  ///< sliding: the distance between window starts
  Millis offset = 0;  ///< fixed and sliding: windows start at offset + k × period (fixed: × size)
  Millis gap = 0;     ///< sessions: rows closer than this join one session

  /// The global window: everything in one window that ends at the end of time.
  static WindowFn Global() { return WindowFn{}; }
  /// Windows [offset + k × size, offset + (k + 1) × size).
  static WindowFn Fixed(Millis size, Millis offset = 0) { return WindowFn{Kind::kFixed, size, size, offset, 0}; }
  /// Windows of `size` starting every `period` (at offset + k × period).
  static WindowFn Sliding(Millis size, Millis period, Millis offset = 0) {
    return WindowFn{Kind::kSliding, size, period, offset, 0};
  }
  /// Per key, rows less than `gap` apart are one session [first, last + gap).
  static WindowFn Sessions(Millis gap) { return WindowFn{Kind::kSessions, 0, 0, 0, gap}; }

  /// Whether windows of one key merge as rows arrive (sessions).
  bool merging() const { return kind == Kind::kSessions; }

  /// Sets `out` to the windows of a row at event time `t` (sessions: its proto-window
  /// [t, t + gap), merged later). Sliding windows come latest start first, as Beam's.
  void Assign(Millis t, std::vector<Window>* out) const;

  /// "fixed(10000ms)", ... for plans and messages.
  std::string ToString() const;
};

}  // namespace recflow::pipeline::window
