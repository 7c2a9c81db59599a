// TfrecordSniffer: TFRecord recognised by its first record's header — a length whose masked CRC matches.
#pragma once

#include "recflow/formats/content_sniffer.h"

namespace recflow::tfrecord {

/// Claims kTfrecord (checked) when the head starts with a 12-byte record header whose length CRC
/// matches, at sniff_priority::kTfrecord. Registered by the "tfrecord" descriptor; the reader
/// sniffs a codec with it too.
class TfrecordSniffer final : public formats::ContentSniffer {
 public:
  int priority() const override { return formats::sniff_priority::kTfrecord; }
  std::optional<formats::ContentClaim> Claim(std::span<const uint8_t> head) const override;
};

}  // namespace recflow::tfrecord
