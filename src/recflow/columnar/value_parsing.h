// Text → value conversions shared by the text formats' inference and decoding, cast and predicates: bool, integers, floats, timestamps.
#pragma once

#include <charconv>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace recflow {

/// "true"/"false" in any letter case.
bool ParseBool(std::string_view s, bool* out);

namespace internal {
/// Drops a leading '+' when a digit follows (std::from_chars rejects '+').
inline std::string_view StripPlus(std::string_view s) {
  if (s.size() >= 2 && s[0] == '+' && s[1] >= '0' && s[1] <= '9') s.remove_prefix(1);
  return s;
}
}  // namespace internal

/// A decimal integer with optional sign that fits T (no spaces, no thousands separators).
template <typename T>
  requires std::is_integral_v<T>
bool ParseInteger(std::string_view s, T* out) {
  s = internal::StripPlus(s);
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
}

/// A decimal float as std::from_chars reads it (sign, digits, '.', exponent; "inf",
/// "infinity" and "nan" in any case, with '-'), also with a leading '+' before a digit or '.'.
/// Values out of T's range are not parsed.
template <typename T>
  requires std::is_floating_point_v<T>
bool ParseFloat(std::string_view s, T* out) {
  if (s.size() >= 2 && s[0] == '+' && s[1] == '.') s.remove_prefix(1);
  s = internal::StripPlus(s);
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out, std::chars_format::general);
  return ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
}

/// ISO-8601 `YYYY-MM-DD`, or `YYYY-MM-DD` + 'T' or ' ' + `HH:MM:SS`, optional `.` and 1-9
/// fraction digits (beyond microseconds truncated), optional `Z` or `+HH:MM` / `-HH:MM`.
/// No zone means UTC. Writes microseconds since 1970-01-01T00:00:00Z.
bool ParseTimestampMicros(std::string_view s, int64_t* out);

}  // namespace recflow
