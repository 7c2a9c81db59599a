// LiveWatermark: the watermark and processing-time tokens of an unbounded source — per partition the latest event
// time seen less an out-of-orderness allowance, the minimum over partitions, and idle partitions following the clock.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "recflow/core/clock.h"
#include "recflow/core/status.h"
#include "recflow/formats/source.h"
#include "recflow/formats/watermark.h"

namespace recflow {

/// How a live source estimates its watermark.
struct LiveWatermarkOptions {
  /// How much earlier than the latest event time seen in its partition a row may still come
  /// (milliseconds, >= 0): a partition's watermark is that latest time less this allowance.
  int64_t out_of_orderness = 0;
  /// A partition that brought no row for this much processing time (milliseconds, > 0) is idle:
  /// its watermark follows the clock (now less the allowance), so that an idle source still
  /// lets windows close. Negative: never (the watermark waits for rows).
  int64_t idle_after = -1;

  /// No allowance, never idle.
  static LiveWatermarkOptions Defaults() { return {}; }
  /// InvalidArgument for a negative allowance or an idle_after of 0.
  Status Validate() const;
};

/// The tokens an unbounded source sends, from the rows it reads and a clock (processing time).
/// Event times and processing time are epoch milliseconds. Not thread-safe: the source's
/// reading thread drives it.
class LiveWatermark {
 public:
  /// `clock` (outlives it) gives processing time; `options` are valid.
  LiveWatermark(const Clock* clock, LiveWatermarkOptions options) : clock_(clock), options_(options) {}

  /// A new partition (a file, a subject), holding the watermark back until it brings a row or
  /// goes idle; returns its index.
  size_t AddPartition();
  /// Partition `p` brought a row at event time `event_time`.
  void Observe(size_t p, int64_t event_time);
  /// Partition `p` ended: it holds nothing back.
  void EndPartition(size_t p);
  /// The tokens to send now, in order: the processing time when the clock moved since the last
  /// call, then the watermark when it moved forward.
  std::vector<FlowToken> Tick();

 private:
  struct Partition {
    int64_t latest = MinWatermark::kNone;  // the latest event time seen
    int64_t last_row = 0;                  // processing time of its last row (or of its start)
    bool ended = false;
  };

  const Clock* clock_;
  LiveWatermarkOptions options_;
  std::vector<Partition> partitions_;
  MinWatermark marks_;
  int64_t ticked_ = MinWatermark::kNone;  // the processing time last sent
};

}  // namespace recflow
