// Parsing durations with a unit.
#include "recflow/pipeline/window/duration.h"

#include <string>

namespace recflow::pipeline::window {

Result<Millis> ParseDuration(std::string_view text) {
  auto bad = [&] {
    return Status::InvalidArgument("'" + std::string(text) +
                                   "' is not a duration (an integer with ms, s, m or h, or milliseconds, at most 2^60 ms)");
  };
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0) return bad();
  const std::string_view unit = text.substr(digits);
  int64_t scale = 0;
  if (unit.empty() || unit == "ms") {
    scale = 1;
  } else if (unit == "s") {
    scale = 1000;
  } else if (unit == "m") {
    scale = 60'000;
  } else if (unit == "h") {
    scale = 3'600'000;
  } else {
    return bad();
  }
  int64_t value = 0;
  for (size_t i = 0; i < digits; ++i) {
    if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, text[i] - '0', &value)) return bad();
  }
  if (__builtin_mul_overflow(value, scale, &value) || value > kMaxDuration) return bad();
  return value;
}

}  // namespace recflow::pipeline::window
