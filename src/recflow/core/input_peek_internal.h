// The streams PeekInput keeps open between format detection and reading (private to core).
#pragma once

#include <memory>
#include <string>

#include "recflow/core/io.h"

namespace recflow::internal {

/// Removes and returns the stream PeekInput kept for `path`, or nullptr.
std::unique_ptr<FileInputStream> TakePeekedInput(const std::string& path);

}  // namespace recflow::internal
