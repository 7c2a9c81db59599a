// Tests for value → text conversions: floats and timestamps read back by value_parsing.h exactly.
#include "recflow/columnar/value_formatting.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "recflow/columnar/value_parsing.h"

namespace recflow {
namespace {

template <typename T>
std::string Text(T v) {
  std::string out;
  if constexpr (std::is_floating_point_v<T>) {
    AppendFloat(v, &out);
  } else {
    AppendInteger(v, &out);
  }
  return out;
}

TEST(ValueFormattingTest, Integers) {
  EXPECT_EQ(Text(int8_t{-128}), "-128");
  EXPECT_EQ(Text(std::numeric_limits<int64_t>::min()), "-9223372036854775808");
  EXPECT_EQ(Text(std::numeric_limits<uint64_t>::max()), "18446744073709551615");
}

TEST(ValueFormattingTest, FloatsAreShortestAndSpelledAsTheReaderReadsThem) {
  EXPECT_EQ(Text(0.1f), "0.1");
  EXPECT_EQ(Text(0.1), "0.1");
  EXPECT_EQ(Text(1e20), "1e+20");
  EXPECT_EQ(Text(-0.0), "-0.0");  // whole numbers keep a fraction: read back, they are floats
  EXPECT_EQ(Text(600.0), "600.0");
  EXPECT_EQ(Text(600.0f), "600.0");
  EXPECT_EQ(Text(-3.0), "-3.0");
  EXPECT_EQ(Text(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(Text(-std::numeric_limits<float>::infinity()), "-inf");
  EXPECT_EQ(Text(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(Text(-std::numeric_limits<float>::quiet_NaN()), "nan");
}

template <typename T>
void ExpectFloatRoundTrip(T v) {
  T back;
  ASSERT_TRUE(ParseFloat(Text(v), &back)) << Text(v);
  if (std::isnan(v)) {
    EXPECT_TRUE(std::isnan(back));
  } else {
    EXPECT_EQ(std::signbit(back), std::signbit(v));
    EXPECT_EQ(back, v) << Text(v);
  }
}

TEST(ValueFormattingTest, FloatsRoundTrip) {
  for (double v : {0.0, -0.0, 0.1, 1.0 / 3, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
                   std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::quiet_NaN()}) {
    ExpectFloatRoundTrip(v);
  }
  for (float v : {0.1f, 1.0f / 3, 1e-45f, 3.4028235e38f, -std::numeric_limits<float>::infinity()}) {
    ExpectFloatRoundTrip(v);
  }
}

std::string Timestamp(int64_t micros) {
  char text[kTimestampTextSize];
  const Status st = FormatTimestamp(micros, text);
  return st.ok() ? std::string(text, sizeof(text)) : st.ToString();
}

TEST(ValueFormattingTest, TimestampsHaveOneWidth) {
  EXPECT_EQ(Timestamp(0), "1970-01-01T00:00:00.000000Z");
  EXPECT_EQ(Timestamp(1706704496123456), "2024-01-31T12:34:56.123456Z");
  EXPECT_EQ(Timestamp(-1), "1969-12-31T23:59:59.999999Z");
  EXPECT_EQ(Timestamp(951782400000000), "2000-02-29T00:00:00.000000Z");
  EXPECT_EQ(Timestamp(kMinTextTimestampMicros), "0000-01-01T00:00:00.000000Z");
  EXPECT_EQ(Timestamp(kMaxTextTimestampMicros), "9999-12-31T23:59:59.999999Z");
}

TEST(ValueFormattingTest, TimestampsRoundTripThroughTheParser) {
  for (int64_t micros : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{1706704496123456}, int64_t{-86400000000},
                         int64_t{-62135596800000001}, kMinTextTimestampMicros, kMaxTextTimestampMicros}) {
    int64_t back = 0;
    ASSERT_TRUE(ParseTimestampMicros(Timestamp(micros), &back)) << Timestamp(micros);
    EXPECT_EQ(back, micros);
  }
}

TEST(ValueFormattingTest, TimestampsOutsideFourDigitYearsAreTypeErrors) {
  char text[kTimestampTextSize] = {};
  for (int64_t micros : {kMinTextTimestampMicros - 1, kMaxTextTimestampMicros + 1,
                         std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
    EXPECT_EQ(FormatTimestamp(micros, text).code(), StatusCode::kTypeError);
  }
  EXPECT_EQ(text[0], '\0');
}

}  // namespace
}  // namespace recflow
