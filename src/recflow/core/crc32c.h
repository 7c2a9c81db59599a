// CRC32C (Castagnoli): SSE4.2 hardware path chosen at run time, portable table fallback.
#pragma once

#include <cstddef>
#include <cstdint>

namespace recflow {

/// Extends `crc` (0 for a fresh checksum) over `n` bytes; dispatches to the fastest path.
uint32_t Crc32cExtend(uint32_t crc, const void* data, size_t n);
/// CRC32C of `n` bytes.
inline uint32_t Crc32c(const void* data, size_t n) { return Crc32cExtend(0, data, n); }

/// The table-driven path (slicing-by-8), always available.
uint32_t Crc32cExtendPortable(uint32_t crc, const void* data, size_t n);
/// The SSE4.2 `crc32` instruction path, 3-way interleaved; only call when available.
uint32_t Crc32cExtendHardware(uint32_t crc, const void* data, size_t n);
/// True when this CPU has SSE4.2.
bool Crc32cHardwareAvailable();

}  // namespace recflow
