// Tests for CRC32C: known vectors, hardware vs portable agreement, incremental extension.
#include "recflow/core/crc32c.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace recflow {
namespace {

using Crc32cFn = uint32_t (*)(uint32_t, const void*, size_t);

/// Both implementations, plus the dispatching entry point (the hardware one only when present).
std::vector<std::pair<std::string, Crc32cFn>> Implementations() {
  std::vector<std::pair<std::string, Crc32cFn>> fns = {{"portable", &Crc32cExtendPortable},
                                                        {"dispatch", &Crc32cExtend}};
  if (Crc32cHardwareAvailable()) fns.emplace_back("hardware", &Crc32cExtendHardware);
  return fns;
}

std::vector<uint8_t> RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

TEST(Crc32cTest, KnownVectors) {
  std::vector<uint8_t> zeros(32, 0), ones(32, 0xff), up(32), down(32);
  for (int i = 0; i < 32; ++i) {
    up[i] = static_cast<uint8_t>(i);
    down[i] = static_cast<uint8_t>(31 - i);
  }
  for (const auto& [name, fn] : Implementations()) {
    SCOPED_TRACE(name);
    EXPECT_EQ(fn(0, "123456789", 9), 0xE3069283u);
    EXPECT_EQ(fn(0, zeros.data(), 32), 0x8A9136AAu);
    EXPECT_EQ(fn(0, ones.data(), 32), 0x62A8AB43u);
    EXPECT_EQ(fn(0, up.data(), 32), 0x46DD794Eu);
    EXPECT_EQ(fn(0, down.data(), 32), 0x113FDB5Cu);
    EXPECT_EQ(fn(0, nullptr, 0), 0u);
  }
  EXPECT_EQ(Crc32c("123456789", 9), 0xE3069283u);
}

TEST(Crc32cTest, HardwareMatchesPortableOnAllSmallLengthsAndAlignments) {
  if (!Crc32cHardwareAvailable()) GTEST_SKIP() << "no SSE4.2 on this CPU";
  const auto data = RandomBytes(1000 + 16, 1);
  for (size_t align : {0, 1, 3, 7, 8, 13}) {
    for (size_t n = 0; n <= 1000; ++n) {
      ASSERT_EQ(Crc32cExtendHardware(0x12345678u, data.data() + align, n),
                Crc32cExtendPortable(0x12345678u, data.data() + align, n))
          << "length " << n << " alignment " << align;
    }
  }
}

TEST(Crc32cTest, HardwareMatchesPortableOnLargeBuffers) {
  if (!Crc32cHardwareAvailable()) GTEST_SKIP() << "no SSE4.2 on this CPU";
  // Sizes around the 3-stream block boundaries (3 x 256 and 3 x 8192 bytes) and far beyond.
  for (size_t n : {767, 768, 769, 24575, 24576, 24577, 24576 + 768 + 7, 1 << 20, (1 << 22) + 12345}) {
    const auto data = RandomBytes(n + 5, static_cast<uint32_t>(n));
    for (size_t align : {0, 5}) {
      EXPECT_EQ(Crc32cExtendHardware(0, data.data() + align, n), Crc32cExtendPortable(0, data.data() + align, n))
          << "length " << n << " alignment " << align;
    }
  }
}

TEST(Crc32cTest, ExtendInPiecesEqualsOneShot) {
  const auto data = RandomBytes(100000, 7);
  for (const auto& [name, fn] : Implementations()) {
    SCOPED_TRACE(name);
    const uint32_t whole = fn(0, data.data(), data.size());
    std::mt19937 rng(3);
    uint32_t crc = 0;
    size_t pos = 0;
    while (pos < data.size()) {
      const size_t piece = std::min<size_t>(rng() % 30000, data.size() - pos);
      crc = fn(crc, data.data() + pos, piece);
      pos += piece;
    }
    EXPECT_EQ(crc, whole);
  }
}

}  // namespace
}  // namespace recflow
