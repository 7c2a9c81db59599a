// CsvSniffer: a text head is taken for CSV.
#include "recflow/formats/csv/csv_sniffer_internal.h"

namespace recflow::csv {

std::optional<formats::ContentClaim> CsvSniffer::Claim(std::span<const uint8_t> head) const {
  if (!formats::FirstTextChar(head)) return std::nullopt;
  return formats::ContentClaim{formats::ContentKind::kCsv, formats::Certainty::kGuess, "text"};
}

}  // namespace recflow::csv
