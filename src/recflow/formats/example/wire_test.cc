// Wire reader/writer tests: varint, tag and length limits exactly as libprotobuf applies them.
#include "recflow/formats/example/wire_internal.h"

#include <gtest/gtest.h>

#include <string>

namespace recflow::example::wire {
namespace {

Reader R(const std::string& s) { return Reader(SpanOf(s)); }

TEST(WireTest, VarintsRoundTripAtEverySize) {
  for (int bits = 0; bits <= 64; ++bits) {
    const uint64_t v = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    uint8_t buf[10];
    const int n = static_cast<int>(WriteVarint(buf, v) - buf);
    EXPECT_EQ(n, VarintSize(v));
    std::string s(reinterpret_cast<char*>(buf), static_cast<size_t>(n));
    Reader r = R(s);
    uint64_t got;
    ASSERT_TRUE(r.ReadVarint(&got));
    EXPECT_EQ(got, v);
    EXPECT_TRUE(r.done());
    const uint8_t* p = buf;
    EXPECT_EQ(DecodeVarintUnchecked(p), v);
  }
}

TEST(WireTest, VarintLimits) {
  uint64_t v;
  EXPECT_TRUE(R("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f").ReadVarint(&v));  // extra bits dropped
  EXPECT_EQ(v, ~uint64_t{0});
  EXPECT_FALSE(R("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01").ReadVarint(&v));
  EXPECT_FALSE(R("\x80").ReadVarint(&v));
  EXPECT_FALSE(R("").ReadVarint(&v));
}

TEST(WireTest, TagLimits) {
  uint32_t tag;
  const std::string five_bytes("\x8a\x80\x80\x80\x10", 5);  // bits beyond 32 fall off: tag 0x0a
  Reader five = R(five_bytes);
  EXPECT_TRUE(five.NextTag(&tag));
  EXPECT_EQ(tag, 0x0au);
  EXPECT_FALSE(R("\x80\x80\x80\x80\x80\x01").NextTag(&tag));
  EXPECT_FALSE(R(std::string("\x00", 1)).NextTag(&tag));  // tag 0 ends a message: an error
  EXPECT_FALSE(R("\x0c").NextTag(&tag));                  // end group
}

TEST(WireTest, LengthLimits) {
  Span s;
  EXPECT_TRUE(R(std::string("\x80\x80\x80\x80\x00", 5)).ReadLengthDelimited(&s));  // 5-byte zero
  EXPECT_EQ(s.size(), 0);
  EXPECT_FALSE(R("\x80\x80\x80\x80\x08").ReadLengthDelimited(&s));  // 2^31: above the limit
  EXPECT_FALSE(R("\x80\x80\x80\x80\x80\x00").ReadLengthDelimited(&s));
  EXPECT_FALSE(R("\x02\x00").ReadLengthDelimited(&s));
}

TEST(WireTest, TwoByteLengthsCoverExactlyTheirBytes) {
  Span s;
  for (size_t n : {size_t{128}, size_t{300}, size_t{16383}}) {
    uint8_t prefix[10];
    const std::string header(reinterpret_cast<char*>(prefix),
                             static_cast<size_t>(WriteVarint(prefix, n) - prefix));
    ASSERT_EQ(header.size(), 2u);
    const std::string bytes = header + std::string(n, 'x') + "y";
    Reader exact = R(bytes);
    ASSERT_TRUE(exact.ReadLengthDelimited(&s)) << n;
    EXPECT_EQ(s.size(), static_cast<int64_t>(n));
    EXPECT_EQ(*exact.position(), 'y');
    EXPECT_FALSE(R(header + std::string(n - 1, 'x')).ReadLengthDelimited(&s)) << n << ": one byte short";
  }
  EXPECT_FALSE(R("\x80").ReadLengthDelimited(&s)) << "the prefix cut after its first byte";
  const std::string non_canonical = std::string("\x81\x00", 2) + "z";
  EXPECT_TRUE(R(non_canonical).ReadLengthDelimited(&s)) << "a non-canonical 1";
  EXPECT_EQ(s.view(), "z");
}

TEST(WireTest, SkipEveryWireType) {
  const std::string fields = std::string("\x08\x96\x01", 3) + "\x11" + std::string(8, 'a') + "\x1a\x02zz" +
                             "\x25" + std::string(4, 'b') + "\x2b\x08\x01\x33\x34\x2c";
  Reader r = R(fields);
  int n = 0;
  while (!r.done()) {
    uint32_t tag;
    ASSERT_TRUE(r.NextTag(&tag));
    ASSERT_TRUE(r.Skip(tag, 0)) << n;
    ++n;
  }
  EXPECT_EQ(n, 5);
  const std::string bad_bytes = "\x0b\x14";
  Reader bad = R(bad_bytes);  // group 1 closed by an end group of field 2
  uint32_t tag;
  ASSERT_TRUE(bad.NextTag(&tag));
  EXPECT_FALSE(bad.Skip(tag, 0));
}

TEST(WireTest, CountPackedVarints) {
  EXPECT_EQ(CountPackedVarints(SpanOf(std::string("\x01\x96\x01\x7f", 4))), 3);
  EXPECT_EQ(CountPackedVarints(SpanOf("\x01\x80")), -1);
  EXPECT_EQ(CountPackedVarints(SpanOf(std::string(10, '\xff') + "\x01")), -1);
  EXPECT_EQ(CountPackedVarints(SpanOf(std::string(9, '\xff') + "\x01")), 1);
}

}  // namespace
}  // namespace recflow::example::wire
