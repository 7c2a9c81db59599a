// The Arrow IPC content checks: a file by its ARROW1 magic and first message, a stream by its framing and Schema message.
#pragma once

#include "recflow/formats/content_sniffer.h"

namespace recflow::arrow_ipc {

/// Claims kArrowFile (checked) when LooksLikeFile holds, at sniff_priority::kArrowFile.
class ArrowFileSniffer final : public formats::ContentSniffer {
 public:
  int priority() const override { return formats::sniff_priority::kArrowFile; }
  std::optional<formats::ContentClaim> Claim(std::span<const uint8_t> head) const override;
};

/// Claims kArrowStream or kArrowLegacyStream (checked) by LooksLikeStream's framing, at
/// sniff_priority::kArrowStream.
class ArrowStreamSniffer final : public formats::ContentSniffer {
 public:
  int priority() const override { return formats::sniff_priority::kArrowStream; }
  std::optional<formats::ContentClaim> Claim(std::span<const uint8_t> head) const override;
};

}  // namespace recflow::arrow_ipc
