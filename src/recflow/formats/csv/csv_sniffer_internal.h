// CsvSniffer: any text is guessed to be CSV, the last of the text checks.
#pragma once

#include "recflow/formats/content_sniffer.h"

namespace recflow::csv {

/// Claims kCsv as a guess for a text head (FirstTextChar), at sniff_priority::kCsvText: after
/// JSON Lines, and below every checked claim and a telling suffix. Registered by "csv".
class CsvSniffer final : public formats::ContentSniffer {
 public:
  int priority() const override { return formats::sniff_priority::kCsvText; }
  std::optional<formats::ContentClaim> Claim(std::span<const uint8_t> head) const override;
};

}  // namespace recflow::csv
