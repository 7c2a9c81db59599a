// TIFF LZW encoding: a string table with O(1) clears and an MSB-first bit packer.
#include "recflow/raster/tiff_lzw.h"

#include <algorithm>

namespace recflow::raster {
namespace {

constexpr uint32_t kClear = 256;
constexpr uint32_t kEndOfInformation = 257;
constexpr uint32_t kFirstCode = 258;
constexpr int kMinBits = 9;
constexpr uint32_t kMaxCode = (1u << 12) - 1;
constexpr size_t kTableSize = 1u << 13;  // a power of two above the 4 096 codes

// Codes packed most significant bit first.
class BitWriter {
 public:
  explicit BitWriter(std::vector<uint8_t>* out) : out_(out) {}
  void Put(uint32_t code, int bits) {
    pending_ = (pending_ << bits) | code;
    count_ += bits;
    while (count_ >= 8) {
      count_ -= 8;
      out_->push_back(static_cast<uint8_t>(pending_ >> count_));
    }
  }
  void Flush() {
    if (count_ > 0) out_->push_back(static_cast<uint8_t>(pending_ << (8 - count_)));
    count_ = 0;
  }

 private:
  std::vector<uint8_t>* out_;
  uint64_t pending_ = 0;
  int count_ = 0;
};

}  // namespace

LzwEncoder::LzwEncoder() : table_(kTableSize) {}

void LzwEncoder::Encode(std::span<const uint8_t> in, std::vector<uint8_t>* out) {
  BitWriter bits(out);
  int width = kMinBits;
  uint32_t next = kFirstCode;
  NewGeneration();
  bits.Put(kClear, width);
  if (in.empty()) {
    bits.Put(kEndOfInformation, width);
    bits.Flush();
    return;
  }
  uint32_t prefix = in[0];
  for (size_t i = 1; i < in.size(); ++i) {
    const uint32_t key = (prefix << 8) | in[i];
    size_t slot = (key * 2654435761u) & (kTableSize - 1);
    while (table_[slot].stamp == generation_ && table_[slot].key != key) slot = (slot + 1) & (kTableSize - 1);
    if (table_[slot].stamp == generation_) {
      prefix = table_[slot].code;
      continue;
    }
    bits.Put(prefix, width);
    prefix = in[i];
    table_[slot] = {key, static_cast<uint16_t>(next), generation_};
    ++next;
    if (next == kMaxCode - 1) {
      // The table is full: start over (the decoder clears on the Clear code).
      bits.Put(kClear, width);
      NewGeneration();
      next = kFirstCode;
      width = kMinBits;
    } else if (next > (1u << width) - 1) {
      ++width;
    }
  }
  // The decoder adds one more entry after the last code: the width of End of Information follows it.
  bits.Put(prefix, width);
  ++next;
  if (next == kMaxCode - 1) {
    bits.Put(kClear, width);
    width = kMinBits;
  } else if (next > (1u << width) - 1) {
    ++width;
  }
  bits.Put(kEndOfInformation, width);
  bits.Flush();
}

void LzwEncoder::NewGeneration() {
  if (++generation_ == 0) {
    std::fill(table_.begin(), table_.end(), Entry{});
    generation_ = 1;
  }
}

}  // namespace recflow::raster
