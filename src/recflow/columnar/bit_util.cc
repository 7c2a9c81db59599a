// Bitmap routines: popcount over a bit range and setting a bit range.
#include "recflow/columnar/bit_util.h"

namespace recflow::bit_util {

void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value) {
  int64_t i = offset;
  const int64_t end = offset + length;
  for (; i < end && (i & 7) != 0; ++i) SetBitTo(bits, i, value);
  const int64_t whole_bytes = (end - i) >> 3;
  if (whole_bytes > 0) {
    std::memset(bits + (i >> 3), value ? 0xFF : 0x00, static_cast<size_t>(whole_bytes));
    i += whole_bytes << 3;
  }
  for (; i < end; ++i) SetBitTo(bits, i, value);
}

int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length) {
  int64_t count = 0;
  int64_t i = offset;
  const int64_t end = offset + length;
  for (; i < end && (i & 7) != 0; ++i) count += GetBit(bits, i);
  const uint8_t* p = bits + (i >> 3);
  for (; end - i >= 64; i += 64, p += 8) {
    uint64_t word;
    std::memcpy(&word, p, sizeof(word));
    count += std::popcount(word);
  }
  for (; end - i >= 8; i += 8, ++p) count += std::popcount(static_cast<unsigned>(*p));
  for (; i < end; ++i) count += GetBit(bits, i);
  return count;
}

}  // namespace recflow::bit_util
