// Text of Arrow's typed values: dates, times of day, timestamps, decimals, half floats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "recflow/columnar/type.h"
#include "recflow/core/result.h"

namespace recflow {

/// Appends `days` since 1970-01-01 as `YYYY-MM-DD`; outside the years 0000..9999 with ISO
/// 8601's expanded year, a sign and at least four digits (`+10000-01-01`, `-0001-12-31`).
/// Every day count of a date32, a date64 or a timestamp has a text (|days| < 2^62).
void AppendDateText(int64_t days, std::string* out);

/// Appends a time of day, `value` in `unit` since midnight, as `HH:MM:SS` plus 3, 6 or 9
/// fraction digits for milli-, micro- and nanoseconds. A value outside [0, 24 h), which the
/// Arrow format does not forbid (its integration files hold 86400 s), keeps its hours beyond
/// 23 and a sign (`24:00:00`, `-00:00:01`) rather than being refused.
void AppendTimeText(int64_t value, TimeUnit unit, std::string* out);

/// Longest text AppendTimestampText writes (a sign, 12 year digits, nanoseconds and `Z`: 39
/// bytes), rounded up.
inline constexpr size_t kMaxTimestampTextBytes = 48;

/// Writes the text AppendTimestampText appends into `out` (at least kMaxTimestampTextBytes)
/// and returns its length: at most 30 bytes, as a TypeError refuses the years outside
/// 0000..9999 (for fixed-width text).
Result<size_t> FormatTimestampText(int64_t value, TimeUnit unit, bool utc, char* out);

/// Appends an instant, `value` in `unit` since 1970-01-01T00:00:00, as
/// `YYYY-MM-DDTHH:MM:SS[.fraction]` (the year as AppendDateText writes it, fraction digits as
/// AppendTimeText), followed by `Z` when `utc` (the value is a UTC instant: the type has a
/// time zone). Every int64 value has a text.
void AppendTimestampText(int64_t value, TimeUnit unit, bool utc, std::string* out);

/// Appends the decimal whose unscaled value is the `byte_width`-byte (4, 8, 16 or 32)
/// little-endian two's complement integer at `bytes`, with `scale` digits after the point
/// ("-12.50" for -1250 at scale 2; a negative scale appends zeros).
void AppendDecimalText(const uint8_t* bytes, int byte_width, int32_t scale, std::string* out);

/// The IEEE 754 binary16 value `bits` as a float (exact: every half is a float).
float HalfToFloat(uint16_t bits);

}  // namespace recflow
