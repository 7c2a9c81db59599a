// JsonlSniffer: a text head opening an object is taken for JSON Lines.
#include "recflow/formats/jsonl/jsonl_sniffer_internal.h"

namespace recflow::jsonl {

std::optional<formats::ContentClaim> JsonlSniffer::Claim(std::span<const uint8_t> head) const {
  if (formats::FirstTextChar(head) != '{') return std::nullopt;
  return formats::ContentClaim{formats::ContentKind::kJsonl, formats::Certainty::kGuess, "text starting with '{'"};
}

}  // namespace recflow::jsonl
