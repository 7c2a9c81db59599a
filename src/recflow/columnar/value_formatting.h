// Value → text conversions shared by the text formats (CSV, JSON Lines), cast and scalars: the inverse of value_parsing.h.
#pragma once

#include <charconv>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string>

#include "recflow/core/status.h"

namespace recflow {

/// Appends `v` in decimal ("-42"), as ParseInteger reads it back.
template <std::integral T>
void AppendInteger(T v, std::string* out) {
  char buf[24];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, res.ptr);
}

/// Appends `v` in the shortest form that ParseFloat<float> reads back to the same float32
/// ("0.1", "1e+20"), a whole number with ".0" ("600.0", "-0.0") so that it reads back as a
/// float, not an integer; infinities as "inf" / "-inf", every NaN as "nan".
void AppendFloat(float v, std::string* out);
/// Same for float64.
void AppendFloat(double v, std::string* out);

/// Characters of a timestamp's text: `YYYY-MM-DDTHH:MM:SS.ffffffZ`.
inline constexpr size_t kTimestampTextSize = 27;
/// The earliest timestamp with such a text, 0000-01-01T00:00:00.000000Z, in microseconds.
inline constexpr int64_t kMinTextTimestampMicros =
    int64_t{std::chrono::sys_days{std::chrono::year{0} / 1 / 1}.time_since_epoch().count()} * 86'400'000'000;
/// The latest, 9999-12-31T23:59:59.999999Z.
inline constexpr int64_t kMaxTextTimestampMicros =
    int64_t{std::chrono::sys_days{std::chrono::year{10000} / 1 / 1}.time_since_epoch().count()} * 86'400'000'000 - 1;

/// Writes `micros` (since 1970-01-01T00:00:00Z) as `YYYY-MM-DDTHH:MM:SS.ffffffZ`, always with six
/// fraction digits, so texts have one width and sort as their instants do; ParseTimestampMicros
/// reads it back exactly. Outside [kMinTextTimestampMicros, kMaxTextTimestampMicros] (years
/// with other than four digits) it writes nothing and returns a TypeError.
Status FormatTimestamp(int64_t micros, char (&text)[kTimestampTextSize]);

}  // namespace recflow
