// Date, time, timestamp and decimal text, and half-float widening.
#include "recflow/formats/value_text.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

namespace recflow {

namespace {

constexpr int64_t kSecondsPerDay = 86'400;

/// Units per second and fraction digits of a TimeUnit.
struct UnitScale {
  int64_t per_second;
  int digits;
};

UnitScale ScaleOf(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return {1, 0};
    case TimeUnit::kMilli: return {1'000, 3};
    case TimeUnit::kMicro: return {1'000'000, 6};
    case TimeUnit::kNano: return {1'000'000'000, 9};
  }
  return {1, 0};
}

/// Writes `value` (>= 0) as exactly `width` digits at `out`; returns the end.
char* PutDigits(int64_t value, int width, char* out) {
  for (int k = width - 1; k >= 0; --k, value /= 10) out[k] = static_cast<char>('0' + value % 10);
  return out + width;
}

/// Writes `YYYY-MM-DD` of `days` (in the text years); returns the end.
char* PutDate(int64_t days, char* out) {
  const std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{days}}};
  out = PutDigits(static_cast<int>(ymd.year()), 4, out);
  *out++ = '-';
  out = PutDigits(static_cast<unsigned>(ymd.month()), 2, out);
  *out++ = '-';
  return PutDigits(static_cast<unsigned>(ymd.day()), 2, out);
}

/// Writes `HH:MM:SS[.fraction]` of `in_day` units of `scale` since midnight (in range); returns the end.
char* PutClock(int64_t in_day, UnitScale scale, char* out) {
  const int64_t seconds = in_day / scale.per_second;
  out = PutDigits(seconds / 3600, 2, out);
  *out++ = ':';
  out = PutDigits(seconds / 60 % 60, 2, out);
  *out++ = ':';
  out = PutDigits(seconds % 60, 2, out);
  if (scale.digits == 0) return out;
  *out++ = '.';
  return PutDigits(in_day % scale.per_second, scale.digits, out);
}

bool InTextYears(int64_t days) {
  using std::chrono::sys_days;
  using std::chrono::year;
  constexpr int64_t kFirst = sys_days{year{0} / 1 / 1}.time_since_epoch().count();
  constexpr int64_t kLast = sys_days{year{9999} / 12 / 31}.time_since_epoch().count();
  return days >= kFirst && days <= kLast;
}

}  // namespace

Status AppendDateText(int64_t days, std::string* out) {
  if (!InTextYears(days)) {
    return Status::TypeError("date " + std::to_string(days) + " days is outside the years 0000..9999");
  }
  char text[10];
  out->append(text, static_cast<size_t>(PutDate(days, text) - text));
  return Status::OK();
}

Status AppendTimeText(int64_t value, TimeUnit unit, std::string* out) {
  const UnitScale scale = ScaleOf(unit);
  if (value < 0 || value >= kSecondsPerDay * scale.per_second) {
    return Status::TypeError("time of day " + std::to_string(value) + " " + TimeUnitName(unit) +
                             " is outside [0, 24 h)");
  }
  char text[kMaxTimestampTextBytes];
  out->append(text, static_cast<size_t>(PutClock(value, scale, text) - text));
  return Status::OK();
}

Result<size_t> FormatTimestampText(int64_t value, TimeUnit unit, bool utc, char* out) {
  const UnitScale scale = ScaleOf(unit);
  const int64_t per_day = kSecondsPerDay * scale.per_second;
  int64_t days = value / per_day;
  int64_t in_day = value % per_day;
  if (in_day < 0) {
    in_day += per_day;
    --days;
  }
  if (!InTextYears(days)) {
    return Status::TypeError("timestamp " + std::to_string(value) + " " + TimeUnitName(unit) +
                             " is outside the years 0000..9999 that ISO-8601 text can hold");
  }
  char* end = PutDate(days, out);
  *end++ = 'T';
  end = PutClock(in_day, scale, end);
  if (utc) *end++ = 'Z';
  return static_cast<size_t>(end - out);
}

Status AppendTimestampText(int64_t value, TimeUnit unit, bool utc, std::string* out) {
  char text[kMaxTimestampTextBytes];
  ASSIGN_OR_RETURN(const size_t length, FormatTimestampText(value, unit, utc, text));
  out->append(text, length);
  return Status::OK();
}

void AppendDecimalText(const uint8_t* bytes, int byte_width, int32_t scale, std::string* out) {
  // Magnitude as little-endian 64-bit limbs.
  uint64_t limbs[4] = {0, 0, 0, 0};
  const int n = byte_width / 8;
  std::memcpy(limbs, bytes, static_cast<size_t>(byte_width));
  const bool negative = (limbs[n - 1] >> 63) != 0;
  if (negative) {  // two's complement negation
    bool carry = true;
    for (int k = 0; k < n; ++k) {
      limbs[k] = ~limbs[k] + (carry ? 1 : 0);
      carry = carry && limbs[k] == 0;
    }
  }
  // Decimal digits, least significant first, 19 at a time.
  std::string digits;
  constexpr uint64_t kChunk = 10'000'000'000'000'000'000ULL;
  while (std::any_of(limbs, limbs + n, [](uint64_t limb) { return limb != 0; })) {
    unsigned __int128 remainder = 0;
    for (int k = n - 1; k >= 0; --k) {
      const unsigned __int128 current = (remainder << 64) | limbs[k];
      limbs[k] = static_cast<uint64_t>(current / kChunk);
      remainder = current % kChunk;
    }
    auto chunk = static_cast<uint64_t>(remainder);
    const bool last = std::none_of(limbs, limbs + n, [](uint64_t limb) { return limb != 0; });
    for (int d = 0; d < 19 && (!last || chunk != 0); ++d, chunk /= 10) digits.push_back(static_cast<char>('0' + chunk % 10));
  }
  if (digits.empty()) digits = "0";
  if (scale > 0 && digits.size() <= static_cast<size_t>(scale)) digits.append(static_cast<size_t>(scale) + 1 - digits.size(), '0');
  std::reverse(digits.begin(), digits.end());
  if (negative) out->push_back('-');
  if (scale > 0) {
    const size_t point = digits.size() - static_cast<size_t>(scale);
    out->append(digits, 0, point).append(".").append(digits, point);
  } else {
    out->append(digits).append(static_cast<size_t>(-static_cast<int64_t>(scale)), '0');
  }
}

float HalfToFloat(uint16_t bits) {
  const int sign = bits >> 15;
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // zero and subnormals
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
  }
  return sign ? -magnitude : magnitude;
}

}  // namespace recflow
