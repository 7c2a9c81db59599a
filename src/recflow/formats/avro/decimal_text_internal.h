// DecimalText: an Avro decimal (unscaled two's-complement big-endian bytes and a scale) as decimal text.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "recflow/core/status.h"

namespace recflow::avro {

/// Longest unscaled value accepted, in bytes (about 617 decimal digits).
inline constexpr int64_t kMaxDecimalBytes = 256;

/// Appends the decimal text of the unscaled big-endian two's-complement integer `unscaled`
/// divided by 10^`scale` to `*out`: "-12.50" for bytes {0xfb, 0x1e} (-1250) and scale 2;
/// "0" for no bytes. DataError for more than kMaxDecimalBytes bytes.
Status AppendDecimalText(std::span<const uint8_t> unscaled, int scale, std::string* out);

}  // namespace recflow::avro
