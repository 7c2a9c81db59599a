// AppendFloat and FormatTimestamp.
#include "recflow/formats/csv/value_formatting.h"

#include <cmath>

namespace recflow::csv {
namespace {

template <typename T>
void AppendFloating(T v, std::string* out) {
  if (std::isnan(v)) {
    out->append("nan");  // to_chars would also spell a negative NaN "-nan"
    return;
  }
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, res.ptr);
}

// Writes the `width` low decimal digits of `v` (>= 0) ending just before `end`.
void PutDigits(int64_t v, int width, char* end) {
  for (int k = 1; k <= width; ++k, v /= 10) end[-k] = static_cast<char>('0' + v % 10);
}

}  // namespace

void AppendFloat(float v, std::string* out) { AppendFloating(v, out); }
void AppendFloat(double v, std::string* out) { AppendFloating(v, out); }

Status FormatTimestamp(int64_t micros, char (&text)[kTimestampTextSize]) {
  if (micros < kMinTextTimestampMicros || micros > kMaxTextTimestampMicros) {
    return Status::TypeError("timestamp " + std::to_string(micros) +
                             " us is outside the years 0000..9999 that ISO-8601 text can hold");
  }
  constexpr int64_t kMicrosPerDay = 86'400'000'000;
  int64_t days = micros / kMicrosPerDay;
  int64_t in_day = micros % kMicrosPerDay;
  if (in_day < 0) {
    in_day += kMicrosPerDay;
    --days;
  }
  const std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{days}}};
  const int64_t seconds = in_day / 1'000'000;
  // 2024-01-31T12:34:56.123456Z
  // 0    5  8  11 14 17 20     26
  text[4] = text[7] = '-';
  text[10] = 'T';
  text[13] = text[16] = ':';
  text[19] = '.';
  text[26] = 'Z';
  PutDigits(static_cast<int>(ymd.year()), 4, text + 4);
  PutDigits(static_cast<unsigned>(ymd.month()), 2, text + 7);
  PutDigits(static_cast<unsigned>(ymd.day()), 2, text + 10);
  PutDigits(seconds / 3600, 2, text + 13);
  PutDigits(seconds / 60 % 60, 2, text + 16);
  PutDigits(seconds % 60, 2, text + 19);
  PutDigits(in_day % 1'000'000, 6, text + 26);
  return Status::OK();
}

}  // namespace recflow::csv
