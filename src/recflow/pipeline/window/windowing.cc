// WindowingStrategy and PaneInfo names.
#include "recflow/pipeline/window/windowing.h"

namespace recflow::pipeline::window {

std::string_view PaneTimingName(PaneTiming timing) {
  switch (timing) {
    case PaneTiming::kEarly: return "early";
    case PaneTiming::kOnTime: return "on_time";
    case PaneTiming::kLate: return "late";
  }
  return "";
}

std::string WindowingStrategy::ToString() const {
  static constexpr std::string_view kCombiners[] = {"end_of_window", "earliest", "latest"};
  return window_fn.ToString() + ", trigger " + trigger.ToString() + ", " +
         (accumulation == Accumulation::kDiscarding ? "discarding" : "accumulating") + ", lateness " +
         std::to_string(allowed_lateness) + "ms, timestamp " +
         std::string(kCombiners[static_cast<int>(timestamp_combiner)]);
}

}  // namespace recflow::pipeline::window
