// Durations as the YAML writes them: "500ms", "10s", "5m", "1h", or an integer of milliseconds.
#pragma once

#include <string_view>

#include "recflow/core/result.h"
#include "recflow/pipeline/window/event_time.h"

namespace recflow::pipeline::window {

/// Parses `text`: digits, then one of ms, s, m, h (none: milliseconds). InvalidArgument for
/// anything else, a negative value, or one that overflows.
Result<Millis> ParseDuration(std::string_view text);

}  // namespace recflow::pipeline::window
