// Bit helpers for Arrow validity bitmaps and boolean values (LSB-first bit order).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace recflow::bit_util {

/// Bytes needed to hold `bits` bits.
constexpr int64_t BytesForBits(int64_t bits) { return (bits + 7) >> 3; }

/// Bit i of an LSB-first bitmap (bit 0 is the lowest bit of byte 0).
inline bool GetBit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }

/// Sets bit i to 1.
inline void SetBit(uint8_t* bits, int64_t i) { bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7)); }

/// Sets bit i to 0.
inline void ClearBit(uint8_t* bits, int64_t i) { bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7))); }

/// Sets bit i to `value`.
inline void SetBitTo(uint8_t* bits, int64_t i, bool value) {
  const uint8_t mask = static_cast<uint8_t>(1u << (i & 7));
  bits[i >> 3] = static_cast<uint8_t>((bits[i >> 3] & ~mask) | (value ? mask : 0));
}

/// Sets `length` bits starting at bit `offset` to `value`.
void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value);

/// Number of 1 bits among `length` bits starting at bit `offset`.
int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length);

/// Sets the `length` bits starting at bit `offset` to successive results of `next()` (called
/// once per bit, in order), a byte at a time; the bits around them are kept. Returns how many
/// were set to 1.
template <typename Generator>
int64_t GenerateBits(uint8_t* bits, int64_t offset, int64_t length, Generator&& next) {
  if (length <= 0) return 0;
  int64_t ones = 0;
  uint8_t* byte = bits + (offset >> 3);
  unsigned mask = 1u << (offset & 7);
  unsigned current = *byte & (mask - 1);  // the bits before `offset`
  for (int64_t i = 0; i < length; ++i) {
    if (next()) {
      current |= mask;
      ++ones;
    }
    mask <<= 1;
    if (mask == 0x100) {
      *byte++ = static_cast<uint8_t>(current);
      mask = 1;
      current = 0;
    }
  }
  if (mask != 1) *byte = static_cast<uint8_t>(current | (*byte & ~(mask - 1)));  // keep the bits after
  return ones;
}

}  // namespace recflow::bit_util
