// SplitKeyValues: KEY=VALUE items split at their first '='.
#include "recflow/cli/key_values.h"

namespace recflow::cli {

Result<std::vector<std::pair<std::string, std::string>>> SplitKeyValues(std::string_view flag,
                                                                        const std::vector<std::string>& items) {
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const std::string& item : items) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      return Status::InvalidArgument(std::string(flag) + " " + item + ": expected KEY=VALUE");
    }
    pairs.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return pairs;
}

}  // namespace recflow::cli
