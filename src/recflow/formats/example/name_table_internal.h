// NameTable: feature name → column index, open addressing built once, with a per-position cache of the last hit.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace recflow::example {

/// Maps feature names to column indices. Records of one dataset usually list their features in
/// the same order, so Find() first tries the column that matched the same map position in the
/// previous record, and hashes only on a miss.
class NameTable {
 public:
  /// Adds a name; false when it is already present.
  bool Add(std::string name, int index);
  /// The index of `name`, or -1. `position` is the entry's ordinal in the record's map.
  int Find(std::string_view name, size_t position) {
    if (position < cache_.size()) {
      const int c = cache_[position];
      if (c >= 0 && Same(names_[static_cast<size_t>(c)].first, name)) return names_[static_cast<size_t>(c)].second;
    }
    const int slot = Lookup(name);
    if (position < kMaxCachedPositions) {
      if (position >= cache_.size()) cache_.resize(position + 1, -1);
      cache_[position] = slot;
    }
    return slot < 0 ? -1 : names_[static_cast<size_t>(slot)].second;
  }
  bool empty() const { return names_.empty(); }

 private:
  static constexpr size_t kMaxCachedPositions = 4096;
  /// a == b, without a library call for names up to 16 bytes (two overlapping loads per side).
  static bool Same(const std::string& a, std::string_view b) {
    const size_t n = a.size();
    if (n != b.size()) return false;
    if (n < 8 || n > 16) return a == b;
    uint64_t a0, a1, b0, b1;
    std::memcpy(&a0, a.data(), 8);
    std::memcpy(&a1, a.data() + n - 8, 8);
    std::memcpy(&b0, b.data(), 8);
    std::memcpy(&b1, b.data() + n - 8, 8);
    return ((a0 ^ b0) | (a1 ^ b1)) == 0;
  }
  /// Index into names_ or -1.
  int Lookup(std::string_view name) const;
  void Rehash();

  std::vector<std::pair<std::string, int>> names_;  ///< (name, column index)
  std::vector<int> slots_;                           ///< open addressing: index into names_ or -1
  std::vector<int> cache_;                           ///< per map position: index into names_ or -1
};

}  // namespace recflow::example
