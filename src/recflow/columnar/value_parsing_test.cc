// Tests for CSV value parsing: bool spellings, integer and float forms, ISO-8601 timestamps.
#include "recflow/columnar/value_parsing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace recflow {
namespace {

TEST(ValueParsingTest, Bool) {
  bool b = false;
  EXPECT_TRUE(ParseBool("true", &b) && b);
  EXPECT_TRUE(ParseBool("TRUE", &b) && b);
  EXPECT_TRUE(ParseBool("False", &b) && !b);
  EXPECT_FALSE(ParseBool("1", &b));
  EXPECT_FALSE(ParseBool("yes", &b));
  EXPECT_FALSE(ParseBool("true ", &b));
  EXPECT_FALSE(ParseBool("", &b));
}

TEST(ValueParsingTest, Integers) {
  int64_t v = 0;
  EXPECT_TRUE(ParseInteger("42", &v) && v == 42);
  EXPECT_TRUE(ParseInteger("-7", &v) && v == -7);
  EXPECT_TRUE(ParseInteger("+7", &v) && v == 7);
  EXPECT_TRUE(ParseInteger("9223372036854775807", &v) && v == std::numeric_limits<int64_t>::max());
  EXPECT_FALSE(ParseInteger("9223372036854775808", &v));
  EXPECT_FALSE(ParseInteger("+-7", &v));
  EXPECT_FALSE(ParseInteger("1.0", &v));
  EXPECT_FALSE(ParseInteger(" 1", &v));
  EXPECT_FALSE(ParseInteger("", &v));
  EXPECT_FALSE(ParseInteger("+", &v));
  int8_t small = 0;
  EXPECT_TRUE(ParseInteger("-128", &small) && small == -128);
  EXPECT_FALSE(ParseInteger("128", &small));
  uint32_t u = 0;
  EXPECT_FALSE(ParseInteger("-1", &u));
}

TEST(ValueParsingTest, Floats) {
  double d = 0;
  EXPECT_TRUE(ParseFloat("1.5", &d) && d == 1.5);
  EXPECT_TRUE(ParseFloat("-2e3", &d) && d == -2000);
  EXPECT_TRUE(ParseFloat("+.5", &d) && d == 0.5);
  EXPECT_TRUE(ParseFloat(".5", &d) && d == 0.5);
  EXPECT_TRUE(ParseFloat("5.", &d) && d == 5);
  EXPECT_TRUE(ParseFloat("7", &d) && d == 7);
  EXPECT_TRUE(ParseFloat("inf", &d) && std::isinf(d) && d > 0);
  EXPECT_TRUE(ParseFloat("-Infinity", &d) && std::isinf(d) && d < 0);
  EXPECT_TRUE(ParseFloat("NaN", &d) && std::isnan(d));
  EXPECT_FALSE(ParseFloat("0x10", &d));
  EXPECT_FALSE(ParseFloat("1e400", &d));
  EXPECT_FALSE(ParseFloat("1,5", &d));
  EXPECT_FALSE(ParseFloat("", &d));
  EXPECT_FALSE(ParseFloat("e5", &d));
}

TEST(ValueParsingTest, Timestamps) {
  int64_t t = 0;
  EXPECT_TRUE(ParseTimestampMicros("1970-01-01", &t) && t == 0);
  EXPECT_TRUE(ParseTimestampMicros("1970-01-02", &t) && t == 86400000000);
  EXPECT_TRUE(ParseTimestampMicros("1969-12-31", &t) && t == -86400000000);
  EXPECT_TRUE(ParseTimestampMicros("2000-02-29T01:02:03", &t) && t == 951786123000000);
  EXPECT_TRUE(ParseTimestampMicros("2000-02-29 01:02:03.25", &t) && t == 951786123250000);
  EXPECT_TRUE(ParseTimestampMicros("2000-02-29T01:02:03.123456789Z", &t) && t == 951786123123456);
  EXPECT_TRUE(ParseTimestampMicros("1970-01-01T01:00:00+01:00", &t) && t == 0);
  EXPECT_TRUE(ParseTimestampMicros("1969-12-31T23:30:00-00:30", &t) && t == 0);
  EXPECT_FALSE(ParseTimestampMicros("1999-02-29", &t));
  EXPECT_FALSE(ParseTimestampMicros("2000-13-01", &t));
  EXPECT_FALSE(ParseTimestampMicros("2000-01-01T24:00:00", &t));
  EXPECT_FALSE(ParseTimestampMicros("2000-01-01T10:00", &t));
  EXPECT_FALSE(ParseTimestampMicros("2000-01-01T10:00:00.", &t));
  EXPECT_FALSE(ParseTimestampMicros("2000-01-01T10:00:00.1234567890", &t));
  EXPECT_FALSE(ParseTimestampMicros("2000-01-01T10:00:00Zx", &t));
  EXPECT_FALSE(ParseTimestampMicros("2000-01-01T10:00:00+0100", &t));
  EXPECT_FALSE(ParseTimestampMicros("2000-1-01", &t));
  EXPECT_FALSE(ParseTimestampMicros("20000101", &t));
}

}  // namespace
}  // namespace recflow
