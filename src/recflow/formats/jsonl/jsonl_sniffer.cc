// JsonlSniffer: a text head opening an object is taken for JSON Lines.
#include <string_view>

#include "recflow/formats/jsonl/jsonl_sniffer_internal.h"

namespace recflow::jsonl {

std::optional<formats::ContentClaim> JsonlSniffer::Claim(std::span<const uint8_t> head) const {
  // The first byte that is not blank (after a byte-order mark) first: most heads do not open an
  // object, and the text check reads the whole head.
  std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{' || formats::FirstTextChar(head) != '{') {
    return std::nullopt;
  }
  return formats::ContentClaim{formats::ContentKind::kJsonl, formats::Certainty::kGuess, "text starting with '{'"};
}

}  // namespace recflow::jsonl
