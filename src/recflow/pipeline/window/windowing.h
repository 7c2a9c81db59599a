// WindowingStrategy and PaneInfo: how a windowed grouping assigns, fires and stamps panes (Beam's model).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "recflow/pipeline/window/trigger.h"
#include "recflow/pipeline/window/window_fn.h"

namespace recflow::pipeline::window {

/// Whether a pane holds what arrived since the last pane (discarding) or since the window began.
enum class Accumulation : uint8_t { kDiscarding, kAccumulating };

/// Which time a pane is stamped with: the window's last timestamp, or its earliest or latest element's.
enum class TimestampCombiner : uint8_t { kEndOfWindow, kEarliest, kLatest };

/// A pane's timing relative to the watermark (Beam's PaneInfo.Timing).
enum class PaneTiming : uint8_t { kEarly, kOnTime, kLate };

/// "early", "on_time", "late".
std::string_view PaneTimingName(PaneTiming timing);

/// What a pane is among the panes of its window (Beam's PaneInfo).
struct PaneInfo {
  PaneTiming timing = PaneTiming::kOnTime;
  int64_t index = 0;                 ///< 0 for the window's first pane, then +1 per pane
  int64_t nonspeculative_index = 0;  ///< -1 for early panes; 0 for the on-time pane (or the first late one), then +1
  bool is_first = true;
  bool is_last = false;              ///< no pane of this window follows
  bool operator==(const PaneInfo& other) const = default;
};

/// Everything a windowed grouping needs to know besides its keys.
struct WindowingStrategy {
  WindowFn window_fn;  ///< how rows are assigned to windows (global by default)
  Trigger trigger;     ///< when panes fire (Beam's default trigger by default)
  Accumulation accumulation = Accumulation::kDiscarding;
  /// How long after its end (by the watermark) a window still takes late rows.
  Millis allowed_lateness = 0;
  TimestampCombiner timestamp_combiner = TimestampCombiner::kEndOfWindow;
  /// One line for plans: "fixed(10000ms), trigger default, discarding, lateness 0ms".
  std::string ToString() const;
};

}  // namespace recflow::pipeline::window
