// NameList: column names as messages of the dataset layer show them, "[a, b]".
#pragma once

#include <string>
#include <vector>

namespace recflow::dataset::internal {

/// `names` as "[a, b]" ("[]" when empty), for messages.
inline std::string NameList(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return "[" + text + "]";
}

}  // namespace recflow::dataset::internal
