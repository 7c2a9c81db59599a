// SplitKeyValues: repeated KEY=VALUE flags (`--set`, `--config`) as key/value pairs.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "recflow/core/result.h"

namespace recflow::cli {

/// Each of `items` split at its first '=' (the value may hold more); InvalidArgument naming
/// `flag` and the item when one has no '=' or an empty key.
Result<std::vector<std::pair<std::string, std::string>>> SplitKeyValues(std::string_view flag,
                                                                        const std::vector<std::string>& items);

}  // namespace recflow::cli
