// Text of Arrow's typed values: dates, times of day, timestamps, decimals, half floats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "recflow/columnar/type.h"
#include "recflow/core/result.h"

namespace recflow {

/// Appends `days` since 1970-01-01 as `YYYY-MM-DD`; TypeError outside the years 0000..9999.
Status AppendDateText(int64_t days, std::string* out);

/// Appends a time of day, `value` in `unit` since midnight, as `HH:MM:SS` plus 3, 6 or 9
/// fraction digits for milli-, micro- and nanoseconds; TypeError outside [0, 24 h).
Status AppendTimeText(int64_t value, TimeUnit unit, std::string* out);

/// Longest text FormatTimestampText writes (nanoseconds and `Z`: 30 bytes), rounded up.
inline constexpr size_t kMaxTimestampTextBytes = 32;

/// Writes the text AppendTimestampText appends into `out` (at least kMaxTimestampTextBytes)
/// and returns its length; the same TypeError outside the years 0000..9999.
Result<size_t> FormatTimestampText(int64_t value, TimeUnit unit, bool utc, char* out);

/// Appends an instant, `value` in `unit` since 1970-01-01T00:00:00, as
/// `YYYY-MM-DDTHH:MM:SS[.fraction]` (fraction digits as AppendTimeText), followed by `Z` when
/// `utc` (the value is a UTC instant: the type has a time zone); TypeError outside the years
/// 0000..9999.
Status AppendTimestampText(int64_t value, TimeUnit unit, bool utc, std::string* out);

/// Appends the decimal whose unscaled value is the `byte_width`-byte (16 or 32) little-endian
/// two's complement integer at `bytes`, with `scale` digits after the point ("-12.50" for
/// -1250 at scale 2; a negative scale appends zeros).
void AppendDecimalText(const uint8_t* bytes, int byte_width, int32_t scale, std::string* out);

/// The IEEE 754 binary16 value `bits` as a float (exact: every half is a float).
float HalfToFloat(uint16_t bits);

}  // namespace recflow
