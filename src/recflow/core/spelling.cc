// EditDistance (optimal string alignment) and ClosestName.
#include "recflow/core/spelling.h"

#include <algorithm>
#include <vector>

namespace recflow {

int EditDistance(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  // Three rows of the dynamic-programming table: i-2, i-1 and i.
  std::vector<int> before(m + 1), previous(m + 1), current(m + 1);
  for (size_t j = 0; j <= m; ++j) previous[j] = static_cast<int>(j);
  for (size_t i = 1; i <= n; ++i) {
    current[0] = static_cast<int>(i);
    for (size_t j = 1; j <= m; ++j) {
      const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[m];
}

std::string ClosestName(std::string_view word, std::span<const std::string> names) {
  if (word.empty()) return "";
  const int allowed = std::max<int>(1, static_cast<int>(word.size()) / 3);
  std::string best;
  int best_distance = allowed + 1;
  int prefix_matches = 0;
  std::string prefix_match;
  for (const std::string& name : names) {
    if (name == word) return "";
    if (name.starts_with(word)) {
      ++prefix_matches;
      prefix_match = name;
    }
    const int d = EditDistance(word, name);
    if (d < best_distance) {
      best_distance = d;
      best = name;
    }
  }
  if (!best.empty()) return best;
  return prefix_matches == 1 ? prefix_match : "";
}

}  // namespace recflow
