// CRC32C: slicing-by-8 tables and a 3-way interleaved SSE4.2 path, both built at compile time.
#include "recflow/core/crc32c.h"

#include <array>
#include <bit>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace recflow {

namespace {

/// The Castagnoli polynomial, bit-reflected.
constexpr uint32_t kPoly = 0x82F63B78u;

using ByteTable = std::array<uint32_t, 256>;

/// Slicing-by-8 tables: entry [k][b] is the CRC register after byte b followed by k zero bytes.
constexpr std::array<ByteTable, 8> MakeSlicingTables() {
  std::array<ByteTable, 8> t{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t c = b;
    for (int bit = 0; bit < 8; ++bit) c = (c & 1) ? (c >> 1) ^ kPoly : c >> 1;
    t[0][b] = c;
  }
  for (size_t k = 1; k < 8; ++k) {
    for (size_t b = 0; b < 256; ++b) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xff];
  }
  return t;
}

constexpr std::array<ByteTable, 8> kSlicing = MakeSlicingTables();

inline uint64_t LoadLittle64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof(v));
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

}  // namespace

uint32_t Crc32cExtendPortable(uint32_t crc, const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  uint32_t c = ~crc;
  while (n > 0 && (reinterpret_cast<uintptr_t>(p) & 7) != 0) {
    c = (c >> 8) ^ kSlicing[0][(c ^ *p++) & 0xff];
    --n;
  }
  for (; n >= 8; n -= 8, p += 8) {
    const uint64_t v = LoadLittle64(p) ^ c;
    c = kSlicing[7][v & 0xff] ^ kSlicing[6][(v >> 8) & 0xff] ^ kSlicing[5][(v >> 16) & 0xff] ^
        kSlicing[4][(v >> 24) & 0xff] ^ kSlicing[3][(v >> 32) & 0xff] ^ kSlicing[2][(v >> 40) & 0xff] ^
        kSlicing[1][(v >> 48) & 0xff] ^ kSlicing[0][v >> 56];
  }
  while (n-- > 0) c = (c >> 8) ^ kSlicing[0][(c ^ *p++) & 0xff];
  return ~c;
}

#if defined(__x86_64__)

namespace {

/// A linear map on the 32-bit CRC register: column i is the image of bit i.
using Matrix = std::array<uint32_t, 32>;

constexpr uint32_t Apply(const Matrix& m, uint32_t v) {
  uint32_t r = 0;
  for (int i = 0; v != 0; ++i, v >>= 1) {
    if (v & 1) r ^= m[i];
  }
  return r;
}

constexpr Matrix Compose(const Matrix& a, const Matrix& b) {  // a after b
  Matrix r{};
  for (int i = 0; i < 32; ++i) r[i] = Apply(a, b[i]);
  return r;
}

/// The register update for `bytes` zero bytes of input, by repeated squaring of the one-bit step.
constexpr Matrix ZeroBytesOperator(size_t bytes) {
  Matrix step{};
  step[0] = kPoly;
  for (int i = 1; i < 32; ++i) step[i] = 1u << (i - 1);
  Matrix result{};
  for (int i = 0; i < 32; ++i) result[i] = 1u << i;
  for (size_t bits = bytes * 8; bits != 0; bits >>= 1) {
    if (bits & 1) result = Compose(step, result);
    step = Compose(step, step);
  }
  return result;
}

/// Byte-wise tables applying ZeroBytesOperator(bytes) to a register in four lookups.
using ShiftTable = std::array<ByteTable, 4>;

constexpr ShiftTable MakeShiftTable(size_t bytes) {
  const Matrix m = ZeroBytesOperator(bytes);
  ShiftTable t{};
  for (uint32_t k = 0; k < 4; ++k) {
    for (uint32_t b = 0; b < 256; ++b) t[k][b] = Apply(m, b << (8 * k));
  }
  return t;
}

inline uint32_t Shift(const ShiftTable& t, uint32_t c) {
  return t[0][c & 0xff] ^ t[1][(c >> 8) & 0xff] ^ t[2][(c >> 16) & 0xff] ^ t[3][c >> 24];
}

/// Stream lengths of the interleaved loops: long enough that combining is negligible.
constexpr size_t kLongBlock = 8192;
constexpr size_t kShortBlock = 256;
constexpr ShiftTable kLongShift = MakeShiftTable(kLongBlock);
constexpr ShiftTable kShortShift = MakeShiftTable(kShortBlock);

/// Runs three crc32 streams over consecutive `block`-byte runs while at least 3 blocks remain,
/// then folds them: crc(A‖B) = shift(crc(A), |B|) ^ crc0(B).
__attribute__((target("sse4.2"))) inline uint64_t Interleave3(uint64_t c, const uint8_t*& p, size_t& n,
                                                               size_t block, const ShiftTable& shift) {
  while (n >= 3 * block) {
    uint64_t c1 = 0, c2 = 0;
    const uint8_t* end = p + block;
    do {
      c = _mm_crc32_u64(c, LoadLittle64(p));
      c1 = _mm_crc32_u64(c1, LoadLittle64(p + block));
      c2 = _mm_crc32_u64(c2, LoadLittle64(p + 2 * block));
      p += 8;
    } while (p < end);
    c = Shift(shift, static_cast<uint32_t>(c)) ^ c1;
    c = Shift(shift, static_cast<uint32_t>(c)) ^ c2;
    p += 2 * block;
    n -= 3 * block;
  }
  return c;
}

}  // namespace

__attribute__((target("sse4.2"))) uint32_t Crc32cExtendHardware(uint32_t crc, const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  uint64_t c = static_cast<uint32_t>(~crc);
  while (n > 0 && (reinterpret_cast<uintptr_t>(p) & 7) != 0) {
    c = _mm_crc32_u8(static_cast<uint32_t>(c), *p++);
    --n;
  }
  c = Interleave3(c, p, n, kLongBlock, kLongShift);
  c = Interleave3(c, p, n, kShortBlock, kShortShift);
  for (; n >= 8; n -= 8, p += 8) c = _mm_crc32_u64(c, LoadLittle64(p));
  while (n-- > 0) c = _mm_crc32_u8(static_cast<uint32_t>(c), *p++);
  return ~static_cast<uint32_t>(c);
}

bool Crc32cHardwareAvailable() {
  static const bool available = __builtin_cpu_supports("sse4.2");
  return available;
}

#else  // no x86-64: the portable path serves both entry points.

uint32_t Crc32cExtendHardware(uint32_t crc, const void* data, size_t n) { return Crc32cExtendPortable(crc, data, n); }

bool Crc32cHardwareAvailable() { return false; }

#endif

uint32_t Crc32cExtend(uint32_t crc, const void* data, size_t n) {
  using Fn = uint32_t (*)(uint32_t, const void*, size_t);
  static const Fn impl = Crc32cHardwareAvailable() ? &Crc32cExtendHardware : &Crc32cExtendPortable;
  return impl(crc, data, n);
}

}  // namespace recflow
