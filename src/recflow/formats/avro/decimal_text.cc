// AppendDecimalText: base-256 magnitude → base-10^9 limbs → digits, with the scale's decimal point.
#include "recflow/formats/avro/decimal_text_internal.h"

#include <vector>

namespace recflow::avro {

Status AppendDecimalText(std::span<const uint8_t> unscaled, int scale, std::string* out) {
  if (static_cast<int64_t>(unscaled.size()) > kMaxDecimalBytes) {
    return Status::DataError("avro: decimal of " + std::to_string(unscaled.size()) + " bytes exceeds the limit of " +
                             std::to_string(kMaxDecimalBytes));
  }
  const bool negative = !unscaled.empty() && (unscaled[0] & 0x80) != 0;
  // The magnitude, big-endian: two's complement negated (invert, add one) when negative.
  std::vector<uint8_t> magnitude(unscaled.begin(), unscaled.end());
  if (negative) {
    for (auto& b : magnitude) b = static_cast<uint8_t>(~b);
    for (size_t i = magnitude.size(); i-- > 0;) {
      if (++magnitude[i] != 0) break;
    }
  }
  // Repeated division by 10^9 gives the base-10^9 limbs, least significant first.
  std::vector<uint32_t> limbs;
  size_t start = 0;
  while (start < magnitude.size()) {
    uint64_t remainder = 0;
    for (size_t i = start; i < magnitude.size(); ++i) {
      const uint64_t current = remainder << 8 | magnitude[i];
      magnitude[i] = static_cast<uint8_t>(current / 1000000000u);
      remainder = current % 1000000000u;
    }
    limbs.push_back(static_cast<uint32_t>(remainder));
    while (start < magnitude.size() && magnitude[start] == 0) ++start;
  }
  std::string digits;
  for (size_t i = limbs.size(); i-- > 0;) {
    std::string limb = std::to_string(limbs[i]);
    if (i + 1 != limbs.size()) limb.insert(0, 9 - limb.size(), '0');
    digits += limb;
  }
  if (digits.empty()) digits.push_back('0');
  if (scale > 0) {
    if (static_cast<int>(digits.size()) <= scale) digits.insert(0, static_cast<size_t>(scale) + 1 - digits.size(), '0');
    digits.insert(digits.size() - static_cast<size_t>(scale), 1, '.');
  }
  if (negative) out->push_back('-');
  out->append(digits);
  return Status::OK();
}

}  // namespace recflow::avro
