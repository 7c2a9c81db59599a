// TIFF's LZW (Compression 5): the encoder a TIFF reader's LZW decoder expects (MSB-first codes of 9..12 bits, early change).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace recflow::raster {

/// Encodes bytes as TIFF 6.0's LZW (section 13): a Clear code first, codes of 9 to 12 bits
/// packed most significant bit first, the code width growing one code early as libtiff's
/// decoder expects, a Clear code whenever the table fills, End of Information last. Holds its
/// string table: one per thread.
class LzwEncoder {
 public:
  LzwEncoder();
  /// `in` encoded, appended to `out`.
  void Encode(std::span<const uint8_t> in, std::vector<uint8_t>* out);

 private:
  // Open-addressing table of (prefix code, byte) → code; an entry is live while its stamp is
  // the current generation, so clearing the table is one increment.
  struct Entry {
    uint32_t key = 0;
    uint16_t code = 0;
    uint32_t stamp = 0;
  };
  // Empties the table (refilled when the generation counter wraps).
  void NewGeneration();
  std::vector<Entry> table_;
  uint32_t generation_ = 0;
};

}  // namespace recflow::raster
