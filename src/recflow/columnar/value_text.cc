// Date, time, timestamp and decimal text, and half-float widening.
#include "recflow/columnar/value_text.h"

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

/// Writes `value` (>= 0) in decimal with at least `width` digits; returns the end.
char* PutAtLeast(int64_t value, int width, char* out) {
  int digits = 1;
  for (int64_t rest = value / 10; rest > 0; rest /= 10) ++digits;
  return PutDigits(value, std::max(digits, width), out);
}

/// A day of the proleptic Gregorian calendar.
struct CivilDate {
  int64_t year;
  int month;  // 1..12
  int day;    // 1..31
};

/// The calendar date `days` after 1970-01-01 (any int64 day count whose year fits int64: the
/// whole range of date32, date64 and every timestamp). Counts in 400-year eras of 146097 days,
/// each starting on a 1 March, so that the leap day ends a year.
CivilDate CivilFromDays(int64_t days) {
  constexpr int64_t kDaysPerEra = 146097;
  const int64_t z = days + 719468;  // days since 0000-03-01
  const int64_t era = (z >= 0 ? z : z - (kDaysPerEra - 1)) / kDaysPerEra;
  const int64_t day_of_era = z - era * kDaysPerEra;                                                   // [0, 146096]
  const int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;  // [0, 399]
  const int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);  // [0, 365]
  const int64_t month_from_march = (5 * day_of_year + 2) / 153;                                        // [0, 11]
  CivilDate out;
  out.day = static_cast<int>(day_of_year - (153 * month_from_march + 2) / 5 + 1);
  out.month = static_cast<int>(month_from_march < 10 ? month_from_march + 3 : month_from_march - 9);
  out.year = year_of_era + era * 400 + (out.month <= 2 ? 1 : 0);
  return out;
}

/// Writes `YYYY-MM-DD` of `days`, with ISO 8601's expanded year (a sign and at least four
/// digits) outside the years 0000..9999; returns the end.
char* PutDate(int64_t days, char* out) {
  const CivilDate date = CivilFromDays(days);
  if (date.year < 0 || date.year > 9999) *out++ = date.year < 0 ? '-' : '+';
  // |year| of an int64 day count stays far below INT64_MAX, so negating it is safe.
  out = PutAtLeast(date.year < 0 ? -date.year : date.year, 4, out);
  *out++ = '-';
  out = PutDigits(date.month, 2, out);
  *out++ = '-';
  return PutDigits(date.day, 2, out);
}

/// Writes `[-]HH:MM:SS[.fraction]` of `value` units of `scale` since midnight, the hours in at
/// least two digits (more, and a sign, for values outside a day); returns the end.
char* PutClock(int64_t value, UnitScale scale, char* out) {
  // The magnitude, unsigned: INT64_MIN has none in int64.
  const uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  if (value < 0) *out++ = '-';
  const auto per_second = static_cast<uint64_t>(scale.per_second);
  const uint64_t seconds = magnitude / per_second;
  out = PutAtLeast(static_cast<int64_t>(seconds / 3600), 2, out);
  *out++ = ':';
  out = PutDigits(static_cast<int64_t>(seconds / 60 % 60), 2, out);
  *out++ = ':';
  out = PutDigits(static_cast<int64_t>(seconds % 60), 2, out);
  if (scale.digits == 0) return out;
  *out++ = '.';
  return PutDigits(static_cast<int64_t>(magnitude % per_second), scale.digits, out);
}

/// Writes the timestamp text of `value` (see AppendTimestampText); returns the end.
char* PutTimestamp(int64_t value, TimeUnit unit, bool utc, char* out) {
  const UnitScale scale = ScaleOf(unit);
  const int64_t per_day = kSecondsPerDay * scale.per_second;
  int64_t days = value / per_day;
  int64_t in_day = value % per_day;
  if (in_day < 0) {
    in_day += per_day;
    --days;
  }
  out = PutDate(days, out);
  *out++ = 'T';
  out = PutClock(in_day, scale, out);
  if (utc) *out++ = 'Z';
  return out;
}

bool InTextYears(int64_t days) {
  using std::chrono::sys_days;
  using std::chrono::year;
  constexpr int64_t kFirst = sys_days{year{0} / 1 / 1}.time_since_epoch().count();
  constexpr int64_t kLast = sys_days{year{9999} / 12 / 31}.time_since_epoch().count();
  return days >= kFirst && days <= kLast;
}

}  // namespace

void AppendDateText(int64_t days, std::string* out) {
  char text[kMaxTimestampTextBytes];
  out->append(text, static_cast<size_t>(PutDate(days, text) - text));
}

void AppendTimeText(int64_t value, TimeUnit unit, std::string* out) {
  char text[kMaxTimestampTextBytes];
  out->append(text, static_cast<size_t>(PutClock(value, ScaleOf(unit), text) - text));
}

Result<size_t> FormatTimestampText(int64_t value, TimeUnit unit, bool utc, char* out) {
  const int64_t per_day = kSecondsPerDay * ScaleOf(unit).per_second;
  const int64_t days = value / per_day - (value % per_day < 0 ? 1 : 0);
  if (!InTextYears(days)) {
    return Status::TypeError("timestamp " + std::to_string(value) + " " + TimeUnitName(unit) +
                             " is outside the years 0000..9999 that ISO-8601 text can hold");
  }
  return static_cast<size_t>(PutTimestamp(value, unit, utc, out) - out);
}

void AppendTimestampText(int64_t value, TimeUnit unit, bool utc, std::string* out) {
  char text[kMaxTimestampTextBytes];
  out->append(text, static_cast<size_t>(PutTimestamp(value, unit, utc, text) - text));
}

void AppendDecimalText(const uint8_t* bytes, int byte_width, int32_t scale, std::string* out) {
  // Magnitude as little-endian 64-bit limbs (a 4-byte value sign-extended into one).
  uint64_t limbs[4] = {0, 0, 0, 0};
  const int n = byte_width < 8 ? 1 : byte_width / 8;
  if (byte_width == 4) {
    int32_t narrow;
    std::memcpy(&narrow, bytes, sizeof(narrow));
    const int64_t wide = narrow;
    std::memcpy(limbs, &wide, sizeof(wide));
  } else {
    std::memcpy(limbs, bytes, static_cast<size_t>(byte_width));
  }
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
