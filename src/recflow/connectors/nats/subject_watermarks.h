// SubjectWatermarks: a source's watermark estimated per subject — the minimum over subjects, less an out-of-orderness
// allowance, with idle subjects left out and an all-idle input advanced by processing time.
#pragma once

#include <string>
#include <string_view>

#include "recflow/ops/columns/vocabulary.h"
#include "recflow/pipeline/window/event_time.h"

namespace recflow::nats {

using pipeline::window::Millis;

/// The watermark of an input whose messages arrive on several subjects, each in roughly
/// increasing event time: per subject the largest event time seen; the watermark is the least of
/// them less `allowance` (events up to `allowance` older than their subject's latest are still on
/// time). A subject that sent nothing for `idle` of processing time no longer holds it back; when
/// every subject is idle the watermark moves on with processing time from the largest event time
/// seen (less `allowance`), as if event time kept pace with the clock. Never goes back. Times are
/// passed in, so the estimate is deterministic.
class SubjectWatermarks {
 public:
  /// `idle` < 0: subjects never count as idle.
  SubjectWatermarks(Millis allowance, Millis idle) : allowance_(allowance), idle_(idle) {}

  /// A message on `subject` with event time `event_time` arrived at processing time `now`.
  void Observe(std::string_view subject, Millis event_time, Millis now);
  /// The watermark at processing time `now` (kMinTime before any message).
  Millis Current(Millis now);

 private:
  struct Subject {
    Millis latest = pipeline::window::kMinTime;  // largest event time seen
    Millis arrived = 0;                          // processing time of its last message
  };
  Millis allowance_;
  Millis idle_;
  ops::StringMap<Subject> subjects_;  // hashed: Observe runs for every message
  Millis watermark_ = pipeline::window::kMinTime;
};

}  // namespace recflow::nats
