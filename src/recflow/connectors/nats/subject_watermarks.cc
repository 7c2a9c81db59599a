// SubjectWatermarks: the per-subject maxima, the minimum over active subjects, the idle advance.
#include "recflow/connectors/nats/subject_watermarks.h"

#include <algorithm>

namespace recflow::nats {

using pipeline::window::kMinTime;
using pipeline::window::SaturatingAdd;

void SubjectWatermarks::Observe(std::string_view subject, Millis event_time, Millis now) {
  auto it = subjects_.find(subject);
  if (it == subjects_.end()) it = subjects_.emplace(std::string(subject), Subject{}).first;
  it->second.latest = std::max(it->second.latest, event_time);
  it->second.arrived = std::max(it->second.arrived, now);
}

Millis SubjectWatermarks::Current(Millis now) {
  if (subjects_.empty()) return watermark_;
  Millis least = pipeline::window::kEndOfTime, latest = kMinTime, last_arrival = kMinTime;
  bool any_active = false;
  for (const auto& [name, s] : subjects_) {
    latest = std::max(latest, s.latest);
    last_arrival = std::max(last_arrival, s.arrived);
    if (idle_ >= 0 && now - s.arrived >= idle_) continue;
    any_active = true;
    least = std::min(least, s.latest);
  }
  Millis estimate = 0;
  if (any_active) {
    estimate = SaturatingAdd(least, -allowance_);
  } else {
    // Every subject idle: event time is taken to go on at the pace of the clock since the last message.
    estimate = SaturatingAdd(SaturatingAdd(latest, -allowance_), now - last_arrival);
  }
  watermark_ = std::max(watermark_, estimate);
  return watermark_;
}

}  // namespace recflow::nats
