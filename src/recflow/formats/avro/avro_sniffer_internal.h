// AvroSniffer: an Avro object container file recognised by its magic "Obj" 01.
#pragma once

#include "recflow/formats/content_sniffer.h"

namespace recflow::avro {

/// Claims kAvro (checked) for a head starting with the container magic, at
/// sniff_priority::kAvro. Registered by the "avro" descriptor.
class AvroSniffer final : public formats::ContentSniffer {
 public:
  int priority() const override { return formats::sniff_priority::kAvro; }
  std::optional<formats::ContentClaim> Claim(std::span<const uint8_t> head) const override;
};

}  // namespace recflow::avro
