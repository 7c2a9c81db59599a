// The strings JSON Lines spells NaN and the infinities with, written by JsonWriter and read back into float columns.
#pragma once

#include <limits>
#include <optional>
#include <string_view>

namespace recflow::jsonl {

/// JSON has no NaN or infinity: JsonWriter writes them as these strings, and a float column of
/// JsonlReader takes them back (as Spark's JSON reader does for a double field).
inline constexpr std::string_view kNanText = "NaN";
inline constexpr std::string_view kInfinityText = "Infinity";
inline constexpr std::string_view kNegativeInfinityText = "-Infinity";

/// The float a JSON string spells when it is exactly one of the three, nullopt for any other text.
inline std::optional<double> ParseNonFiniteText(std::string_view text) {
  if (text == kNanText) return std::numeric_limits<double>::quiet_NaN();
  if (text == kInfinityText) return std::numeric_limits<double>::infinity();
  if (text == kNegativeInfinityText) return -std::numeric_limits<double>::infinity();
  return std::nullopt;
}

}  // namespace recflow::jsonl
