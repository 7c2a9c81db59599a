// Tests of the bitmap helpers: GenerateBits at any bit offset keeps the bits around the range.
#include "recflow/columnar/bit_util.h"

#include <gtest/gtest.h>

#include <vector>

namespace recflow::bit_util {
namespace {

TEST(BitUtilTest, GenerateBitsWritesTheRangeAndKeepsTheRest) {
  for (int64_t offset = 0; offset < 17; ++offset) {
    for (int64_t length = 0; length < 20; ++length) {
      std::vector<uint8_t> bits(6, 0xA5);
      std::vector<uint8_t> want = bits;
      int64_t i = 0, want_ones = 0;
      const auto pattern = [](int64_t k) { return k % 3 != 1; };
      for (int64_t k = 0; k < length; ++k) {
        SetBitTo(want.data(), offset + k, pattern(k));
        want_ones += pattern(k);
      }
      const int64_t ones = GenerateBits(bits.data(), offset, length, [&] { return pattern(i++); });
      EXPECT_EQ(bits, want) << "offset " << offset << ", length " << length;
      EXPECT_EQ(ones, want_ones);
      EXPECT_EQ(i, length);
    }
  }
}

}  // namespace
}  // namespace recflow::bit_util
