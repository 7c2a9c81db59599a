// Tests of the text of dates, times, timestamps, decimals and half floats.
#include "recflow/columnar/value_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace recflow {
namespace {

std::string Date(int64_t days) {
  std::string out;
  AppendDateText(days, &out);
  return out;
}

std::string Time(int64_t value, TimeUnit unit) {
  std::string out;
  AppendTimeText(value, unit, &out);
  return out;
}

std::string Timestamp(int64_t value, TimeUnit unit, bool utc) {
  std::string out;
  AppendTimestampText(value, unit, utc, &out);
  return out;
}

/// The decimal text of a 128-bit value given as (high, low) 64-bit halves.
std::string Decimal128(int64_t high, uint64_t low, int32_t scale) {
  uint8_t bytes[16];
  std::memcpy(bytes, &low, 8);
  std::memcpy(bytes + 8, &high, 8);
  std::string out;
  AppendDecimalText(bytes, 16, scale, &out);
  return out;
}

TEST(ValueTextTest, Dates) {
  EXPECT_EQ(Date(0), "1970-01-01");
  EXPECT_EQ(Date(-1), "1969-12-31");
  EXPECT_EQ(Date(18000), "2019-04-14");
  EXPECT_EQ(Date(-719528), "0000-01-01");
  EXPECT_EQ(Date(11016), "2000-02-29");
  EXPECT_EQ(Date(-141427), "1582-10-15");
  // Beyond 0000..9999: ISO 8601's expanded years, to the ends of date32.
  EXPECT_EQ(Date(-719529), "-0001-12-31");
  EXPECT_EQ(Date(2932896), "9999-12-31");
  EXPECT_EQ(Date(2932897), "+10000-01-01");
  EXPECT_EQ(Date(INT32_MAX), "+5881580-07-11");
  EXPECT_EQ(Date(INT32_MIN), "-5877641-06-23");
}

TEST(ValueTextTest, TimesAndTimestamps) {
  EXPECT_EQ(Time(3723, TimeUnit::kSecond), "01:02:03");
  EXPECT_EQ(Time(3723001, TimeUnit::kMilli), "01:02:03.001");
  EXPECT_EQ(Time(86'399'999'999'999, TimeUnit::kNano), "23:59:59.999999999");
  // Times the Arrow format lets a producer write beyond a day print rather than fail.
  EXPECT_EQ(Time(86'400, TimeUnit::kSecond), "24:00:00");
  EXPECT_EQ(Time(86'400'000, TimeUnit::kMilli), "24:00:00.000");
  EXPECT_EQ(Time(-1, TimeUnit::kMicro), "-00:00:00.000001");
  EXPECT_EQ(Time(INT32_MAX, TimeUnit::kSecond), "596523:14:07");
  EXPECT_EQ(Time(INT64_MIN, TimeUnit::kNano), "-2562047:47:16.854775808");

  EXPECT_EQ(Timestamp(0, TimeUnit::kSecond, false), "1970-01-01T00:00:00");
  EXPECT_EQ(Timestamp(-1, TimeUnit::kNano, true), "1969-12-31T23:59:59.999999999Z");
  EXPECT_EQ(Timestamp(1'700'000'000'123, TimeUnit::kMilli, true), "2023-11-14T22:13:20.123Z");
  EXPECT_EQ(Timestamp(1'700'000'000'000'001, TimeUnit::kMicro, false), "2023-11-14T22:13:20.000001");
  EXPECT_EQ(Timestamp(253402300800, TimeUnit::kSecond, true), "+10000-01-01T00:00:00Z");
  EXPECT_EQ(Timestamp(INT64_MAX, TimeUnit::kMilli, false), "+292278994-08-17T07:12:55.807");
  EXPECT_EQ(Timestamp(INT64_MIN, TimeUnit::kSecond, false), "-292277022657-01-27T08:29:52");
  // The fixed-width form keeps to the years 0000..9999.
  char text[kMaxTimestampTextBytes];
  EXPECT_EQ(FormatTimestampText(253402300800, TimeUnit::kSecond, true, text).status().code(), StatusCode::kTypeError);
  EXPECT_EQ(FormatTimestampText(-1, TimeUnit::kSecond, false, text).ValueOrDie(), 19u);
}

TEST(ValueTextTest, Decimals) {
  EXPECT_EQ(Decimal128(-1, static_cast<uint64_t>(-1250), 2), "-12.50");
  EXPECT_EQ(Decimal128(0, 1, 3), "0.001");
  EXPECT_EQ(Decimal128(0, 0, 0), "0");
  EXPECT_EQ(Decimal128(0, 0, 2), "0.00");
  EXPECT_EQ(Decimal128(0, 42, -3), "42000");
  EXPECT_EQ(Decimal128(0, 10'000'000'000'000'000'000ULL, 0), "10000000000000000000");  // crosses a 19-digit chunk
  EXPECT_EQ(Decimal128(INT64_MAX, ~0ULL, 0), "170141183460469231731687303715884105727");
  EXPECT_EQ(Decimal128(INT64_MIN, 0, 0), "-170141183460469231731687303715884105728");
  EXPECT_EQ(Decimal128(INT64_MIN, 0, 38), "-1.70141183460469231731687303715884105728");

  // 256 bits: 2^255 - 1 and -2^255.
  std::vector<uint8_t> max(32, 0xFF);
  max[31] = 0x7F;
  std::string out;
  AppendDecimalText(max.data(), 32, 0, &out);
  EXPECT_EQ(out, "57896044618658097711785492504343953926634992332820282019728792003956564819967");
  std::vector<uint8_t> min(32, 0);
  min[31] = 0x80;
  out.clear();
  AppendDecimalText(min.data(), 32, 76, &out);
  EXPECT_EQ(out, "-5.7896044618658097711785492504343953926634992332820282019728792003956564819968");

  // 32 and 64 bits (decimal32, decimal64).
  const int32_t narrow = -1250;
  out.clear();
  AppendDecimalText(reinterpret_cast<const uint8_t*>(&narrow), 4, 2, &out);
  EXPECT_EQ(out, "-12.50");
  const int32_t narrow_min = INT32_MIN;
  out.clear();
  AppendDecimalText(reinterpret_cast<const uint8_t*>(&narrow_min), 4, 9, &out);
  EXPECT_EQ(out, "-2.147483648");
  const int64_t wide = INT64_MIN;
  out.clear();
  AppendDecimalText(reinterpret_cast<const uint8_t*>(&wide), 8, 0, &out);
  EXPECT_EQ(out, "-9223372036854775808");
}

TEST(ValueTextTest, HalfFloats) {
  EXPECT_EQ(HalfToFloat(0x3C00), 1.0f);
  EXPECT_EQ(HalfToFloat(0xC000), -2.0f);
  EXPECT_EQ(HalfToFloat(0x7BFF), 65504.0f);
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(HalfToFloat(0x3555), 0.333251953125f);
  EXPECT_TRUE(std::isinf(HalfToFloat(0x7C00)) && HalfToFloat(0x7C00) > 0);
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7E00)));
  EXPECT_TRUE(std::signbit(HalfToFloat(0x8000)));
}

}  // namespace
}  // namespace recflow
