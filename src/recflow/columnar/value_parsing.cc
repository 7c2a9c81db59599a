// Bool and ISO-8601 timestamp parsing (numbers are inline templates over std::from_chars).
#include "recflow/columnar/value_parsing.h"

#include <chrono>

namespace recflow {
namespace {

bool EqualsLower(std::string_view s, std::string_view lower) {
  if (s.size() != lower.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != lower[i]) return false;
  }
  return true;
}

// Reads exactly `n` digits at s[pos]; false when any is not a digit or s is too short.
bool Digits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

}  // namespace

bool ParseBool(std::string_view s, bool* out) {
  if (EqualsLower(s, "true")) {
    *out = true;
    return true;
  }
  if (EqualsLower(s, "false")) {
    *out = false;
    return true;
  }
  return false;
}

bool ParseTimestampMicros(std::string_view s, int64_t* out) {
  int year, month, day;
  if (s.size() < 10 || !Digits(s, 0, 4, &year) || s[4] != '-' || !Digits(s, 5, 2, &month) || s[7] != '-' ||
      !Digits(s, 8, 2, &day)) {
    return false;
  }
  const std::chrono::year_month_day ymd{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                                        std::chrono::day{static_cast<unsigned>(day)}};
  if (!ymd.ok()) return false;
  int64_t micros = int64_t{std::chrono::sys_days(ymd).time_since_epoch().count()} * 86400 * 1000000;
  if (s.size() == 10) {
    *out = micros;
    return true;
  }
  int hour, minute, second;
  if ((s[10] != 'T' && s[10] != ' ') || !Digits(s, 11, 2, &hour) || s.size() < 19 || s[13] != ':' ||
      !Digits(s, 14, 2, &minute) || s[16] != ':' || !Digits(s, 17, 2, &second) || hour > 23 || minute > 59 ||
      second > 59) {
    return false;
  }
  micros += (int64_t{hour} * 3600 + minute * 60 + second) * 1000000;
  size_t pos = 19;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    int64_t fraction = 0;
    size_t digits = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (digits < 6) fraction = fraction * 10 + (s[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0 || digits > 9) return false;
    for (size_t d = digits; d < 6; ++d) fraction *= 10;
    micros += fraction;
  }
  if (pos == s.size()) {
    *out = micros;
    return true;
  }
  if (s[pos] == 'Z') {
    if (pos + 1 != s.size()) return false;
    *out = micros;
    return true;
  }
  if (s[pos] != '+' && s[pos] != '-') return false;
  int zone_hour, zone_minute;
  if (pos + 6 != s.size() || !Digits(s, pos + 1, 2, &zone_hour) || s[pos + 3] != ':' ||
      !Digits(s, pos + 4, 2, &zone_minute) || zone_hour > 23 || zone_minute > 59) {
    return false;
  }
  const int64_t zone = (int64_t{zone_hour} * 3600 + zone_minute * 60) * 1000000;
  *out = s[pos] == '+' ? micros - zone : micros + zone;
  return true;
}

}  // namespace recflow
