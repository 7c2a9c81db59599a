// SequenceRanges: a set of JetStream stream sequences kept as disjoint ranges — what a NATS read's checkpoint position
// covers — and its text form in a checkpoint ("FIRST-LAST" entries).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "recflow/core/result.h"

namespace recflow::nats {

/// A set of stream sequences as ascending, disjoint, non-adjacent ranges: a run's messages come
/// mostly in stream order, so the set of those it read stays a few ranges however many there are.
class SequenceRanges {
 public:
  /// Adds `sequence` (merging it with the ranges it touches).
  void Add(uint64_t sequence);
  /// Adds every sequence from 1 to `last` (none when it is 0): the ranges below it become one.
  void CoverThrough(uint64_t last);
  /// True when `sequence` is in the set.
  bool Contains(uint64_t sequence) const;
  /// True when the set is empty.
  bool empty() const { return ranges_.empty(); }
  /// How many ranges the set is.
  size_t range_count() const { return ranges_.size(); }
  /// The largest sequence in the set (0 when it is empty).
  uint64_t last() const { return ranges_.empty() ? 0 : ranges_.rbegin()->second; }
  /// The ranges as checkpoint position entries, ascending: "FIRST-LAST" each.
  std::vector<std::string> ToEntries() const;
  /// The set position `entries` names (ToEntries' form); DataError naming the first entry that is
  /// not a range of stream sequences above the one before.
  static Result<SequenceRanges> FromEntries(const std::vector<std::string>& entries);

 private:
  std::map<uint64_t, uint64_t> ranges_;  // first -> last (inclusive)
};

}  // namespace recflow::nats
