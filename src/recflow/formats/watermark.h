// MinWatermark: the watermark of several inputs, or of the partitions of one input (files, subjects), as the minimum
// of theirs — Beam's rule for a step with several inputs and for a partitioned source.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace recflow {

/// The watermarks of some partitions and their minimum. A partition starts before every event
/// time (it holds the minimum back until it says where it is) and moves forward only; one that
/// ended (a bounded input read to its end) no longer holds the minimum. Not thread-safe.
class MinWatermark {
 public:
  /// The watermark of a partition before its first advance.
  static constexpr int64_t kNone = std::numeric_limits<int64_t>::min();
  /// The watermark of a partition that ended.
  static constexpr int64_t kEnded = std::numeric_limits<int64_t>::max();

  /// `partitions` partitions, none advanced yet.
  explicit MinWatermark(size_t partitions = 0) : marks_(partitions, kNone) {}

  /// A new partition (a file or subject that appeared), at `time`; returns its index. A
  /// partition added at an earlier time than the minimum holds the minimum back from then on
  /// (the minimum a caller already passed on stays passed on: see Advanced).
  size_t Add(int64_t time = kNone) {
    marks_.push_back(time);
    return marks_.size() - 1;
  }
  /// Partition `p`'s watermark moves to `time`; an earlier time than it had is ignored.
  void Advance(size_t p, int64_t time) {
    if (time > marks_[p]) marks_[p] = time;
  }
  /// Partition `p` ended.
  void End(size_t p) { marks_[p] = kEnded; }
  /// The minimum over the partitions (kEnded when every one ended or there is none).
  int64_t Current() const;
  /// The minimum when it is past the one this returned last (and past kNone), else nothing: the
  /// watermark to pass on, never going back.
  std::optional<int64_t> Advanced();
  /// The number of partitions.
  size_t size() const { return marks_.size(); }

 private:
  std::vector<int64_t> marks_;
  int64_t passed_ = kNone;  // what Advanced returned last
};

}  // namespace recflow
