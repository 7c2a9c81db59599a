// SequenceRanges: adding a sequence (or every one up to a floor) merges it into its neighbours; entries are printed and
// parsed as FIRST-LAST.
#include "recflow/connectors/nats/sequence_ranges.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <string_view>

namespace recflow::nats {

void SequenceRanges::Add(uint64_t sequence) {
  auto next = ranges_.upper_bound(sequence);  // the first range starting after it
  if (next != ranges_.begin()) {
    auto before = std::prev(next);
    if (before->second >= sequence) return;  // in it already
    if (before->second + 1 == sequence) {
      before->second = sequence;
      if (next != ranges_.end() && next->first == sequence + 1) {
        before->second = next->second;
        ranges_.erase(next);
      }
      return;
    }
  }
  if (next != ranges_.end() && next->first == sequence + 1) {
    const uint64_t last = next->second;
    ranges_.erase(next);
    ranges_.emplace(sequence, last);
    return;
  }
  ranges_.emplace(sequence, sequence);
}

void SequenceRanges::CoverThrough(uint64_t last) {
  if (last == 0) return;
  // Every range starting at or before last + 1 overlaps or touches 1..last: they merge into one range from 1.
  const auto merged_end = last == UINT64_MAX ? ranges_.end() : ranges_.upper_bound(last + 1);
  const uint64_t through = merged_end == ranges_.begin() ? last : std::max(last, std::prev(merged_end)->second);
  ranges_.erase(ranges_.begin(), merged_end);
  ranges_.emplace(1, through);
}

bool SequenceRanges::Contains(uint64_t sequence) const {
  auto next = ranges_.upper_bound(sequence);
  return next != ranges_.begin() && std::prev(next)->second >= sequence;
}

std::vector<std::string> SequenceRanges::ToEntries() const {
  std::vector<std::string> entries;
  entries.reserve(ranges_.size());
  for (const auto& [first, last] : ranges_) entries.push_back(std::to_string(first) + "-" + std::to_string(last));
  return entries;
}

namespace {

// The number `text` is entirely; false when it is not one.
bool ParseSequence(std::string_view text, uint64_t* out) {
  auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return error == std::errc() && stop == text.data() + text.size();
}

}  // namespace

Result<SequenceRanges> SequenceRanges::FromEntries(const std::vector<std::string>& entries) {
  SequenceRanges set;
  for (const std::string& entry : entries) {
    const size_t dash = entry.find('-');
    uint64_t first = 0;
    uint64_t last = 0;
    const bool ok = dash != std::string::npos && ParseSequence(std::string_view(entry).substr(0, dash), &first) &&
                    ParseSequence(std::string_view(entry).substr(dash + 1), &last) && first >= 1 && first <= last &&
                    (set.empty() || first > set.last() + 1);
    if (!ok) {
      return Status::DataError("the checkpoint's position of the nats read names '" + entry +
                               "', not a range FIRST-LAST of stream sequences after the ranges before it");
    }
    set.ranges_.emplace(first, last);
  }
  return set;
}

}  // namespace recflow::nats
