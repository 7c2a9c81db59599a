// AvroSniffer: the object container magic at offset 0.
#include <string_view>

#include "recflow/formats/avro/avro_sniffer_internal.h"

namespace recflow::avro {

std::optional<formats::ContentClaim> AvroSniffer::Claim(std::span<const uint8_t> head) const {
  constexpr std::string_view kMagic("Obj\x01", 4);
  if (std::string_view(reinterpret_cast<const char*>(head.data()), head.size()).substr(0, kMagic.size()) != kMagic) {
    return std::nullopt;
  }
  return formats::ContentClaim{formats::ContentKind::kAvro, formats::Certainty::kChecked, "magic Obj 01"};
}

}  // namespace recflow::avro
