// Durations as the YAML writes them: "500ms", "10s", "5m", "1h", or an integer of milliseconds.
#pragma once

#include <string_view>

#include "recflow/core/result.h"
#include "recflow/pipeline/window/event_time.h"

namespace recflow::pipeline::window {

/// The longest duration a window, gap or lateness may have (2^60 ms, some 36 million years), so
/// that window arithmetic on any event time stays within int64.
inline constexpr Millis kMaxDuration = int64_t{1} << 60;

/// Parses `text`: digits, then one of ms, s, m, h (none: milliseconds). InvalidArgument for
/// anything else, a negative value, or one longer than kMaxDuration.
Result<Millis> ParseDuration(std::string_view text);

}  // namespace recflow::pipeline::window
