// JsonlSniffer: text whose first non-blank character is '{' is guessed to be JSON Lines.
#pragma once

#include "recflow/formats/content_sniffer.h"

namespace recflow::jsonl {

/// Claims kJsonl as a guess for a text head starting (after blanks) with '{', at
/// sniff_priority::kJsonlText: before CSV, below every checked claim and a telling suffix.
/// Registered by "jsonl".
class JsonlSniffer final : public formats::ContentSniffer {
 public:
  int priority() const override { return formats::sniff_priority::kJsonlText; }
  std::optional<formats::ContentClaim> Claim(std::span<const uint8_t> head) const override;
};

}  // namespace recflow::jsonl
