// Tests for the Avro binary primitives (BinaryCursor) and decimal text.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "recflow/formats/avro/binary_cursor_internal.h"
#include "recflow/formats/avro/decimal_text_internal.h"
#include "recflow/formats/avro/test_container_internal.h"

namespace recflow::avro {
namespace {

std::span<const uint8_t> Span(const std::string& s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

TEST(AvroBinaryTest, LongsRoundTripAtTheExtremes) {
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{-64}, int64_t{63}, int64_t{64},
                    std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
    const std::string bytes = testing::Long(v);
    BinaryCursor in(Span(bytes));
    int64_t out = 0;
    ASSERT_TRUE(in.ReadLong(&out).ok()) << v;
    EXPECT_EQ(out, v);
    EXPECT_EQ(in.remaining(), 0);
  }
  EXPECT_EQ(testing::Long(-1), "\x01");  // the specification's examples
  EXPECT_EQ(testing::Long(64), "\x80\x01");
}

TEST(AvroBinaryTest, MalformedVarintsAreErrorsWithOffsets) {
  int64_t out = 0;
  const std::string eleven(11, '\xff');
  BinaryCursor too_long(Span(eleven), 100);
  Status st = too_long.ReadLong(&out);
  EXPECT_EQ(st.code(), StatusCode::kDataError);
  EXPECT_EQ(st.context().offset, 100);
  const std::string overflow = std::string(9, '\xff') + "\x02";
  EXPECT_FALSE(BinaryCursor(Span(overflow)).ReadLong(&out).ok());
  const std::string truncated = "\x80\x80";
  st = BinaryCursor(Span(truncated)).ReadLong(&out);
  EXPECT_NE(st.message().find("truncated"), std::string::npos);
  EXPECT_NE(st.message().find("decompressed block"), std::string::npos) << st.ToString();
  int32_t i = 0;
  const std::string big = testing::Long(int64_t{1} << 31);
  EXPECT_FALSE(BinaryCursor(Span(big)).ReadInt(&i).ok());
}

TEST(AvroBinaryTest, FloatsAreLittleEndian) {
  const std::string bytes("\x00\x00\x80\x3f" "\x00\x00\x00\x00\x00\x00\xf0\xbf", 12);
  BinaryCursor in(Span(bytes));
  float f = 0;
  double d = 0;
  ASSERT_TRUE(in.ReadFloat(&f).ok());
  ASSERT_TRUE(in.ReadDouble(&d).ok());
  EXPECT_EQ(f, 1.0f);
  EXPECT_EQ(d, -1.0);
  EXPECT_FALSE(in.ReadFloat(&f).ok());
}

TEST(AvroBinaryTest, BlockCountsAreBoundedByTheBytesLeft) {
  int64_t count = 0;
  const std::string ok = testing::Long(-2) + testing::Long(2) + "ab";
  BinaryCursor in(Span(ok));
  ASSERT_TRUE(in.ReadBlockCount(1, &count).ok());
  EXPECT_EQ(count, 2);
  const std::string huge = testing::Long(3) + "ab";
  EXPECT_FALSE(BinaryCursor(Span(huge)).ReadBlockCount(1, &count).ok());
  const std::string zero_size = testing::Long(kMaxZeroSizeItems + 1);
  EXPECT_FALSE(BinaryCursor(Span(zero_size)).ReadBlockCount(0, &count).ok());
}

std::string Decimal(std::initializer_list<uint8_t> bytes, int scale) {
  const std::vector<uint8_t> v(bytes);
  std::string out;
  EXPECT_TRUE(AppendDecimalText(v, scale, &out).ok());
  return out;
}

TEST(AvroBinaryTest, DecimalText) {
  EXPECT_EQ(Decimal({}, 0), "0");
  EXPECT_EQ(Decimal({0x00}, 2), "0.00");
  EXPECT_EQ(Decimal({0xfb, 0x1e}, 2), "-12.50");
  EXPECT_EQ(Decimal({0x04, 0xe2}, 3), "1.250");
  EXPECT_EQ(Decimal({0xff}, 0), "-1");
  EXPECT_EQ(Decimal({0x80}, 0), "-128");
  EXPECT_EQ(Decimal({0x01}, 4), "0.0001");
  // 2^64 = 18446744073709551616, and -2^71 across several limbs.
  EXPECT_EQ(Decimal({0x01, 0, 0, 0, 0, 0, 0, 0, 0}, 0), "18446744073709551616");
  EXPECT_EQ(Decimal({0x80, 0, 0, 0, 0, 0, 0, 0, 0}, 1), "-236118324143482260684.8");
  const std::vector<uint8_t> too_long(kMaxDecimalBytes + 1, 1);
  std::string out;
  EXPECT_EQ(AppendDecimalText(too_long, 0, &out).code(), StatusCode::kDataError);
}

}  // namespace
}  // namespace recflow::avro
