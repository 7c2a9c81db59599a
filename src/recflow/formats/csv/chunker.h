// Chunker: finds row boundaries in a CSV byte stream, quote-aware, so blocks parse independently.
#pragma once

#include <cstdint>
#include <string_view>

#include "recflow/formats/csv/read_options.h"

namespace recflow::csv {

/// Scans CSV bytes front to back from a known row start and reports where complete rows end.
/// It runs the same field state machine as the block parser (a quote opens a quoted field only
/// at the start of a field; comment lines run to their LF), so every boundary it reports is a
/// row boundary for the parser too, and the bytes between two boundaries parse on their own.
/// The state carries across calls, so a row split over several reads is scanned once.
class Chunker {
 public:
  /// A chunker at the start of a row (the start of the input).
  explicit Chunker(const Dialect& dialect);

  /// Scans `bytes`, which continue the bytes of earlier calls. Returns the length of the
  /// longest prefix of `bytes` that ends just after a row-terminating LF, or -1 when `bytes`
  /// hold no such LF.
  int64_t Scan(std::string_view bytes);

  /// LF bytes (inside quoted fields too) from the start of the input up to the last row end
  /// found; the row after it starts on line `newlines_at_last_row_end() + 1`.
  int64_t newlines_at_last_row_end() const { return newlines_at_row_end_; }

 private:
  enum class State : uint8_t { kRowStart, kFieldStart, kUnquoted, kQuoted, kQuoteInQuoted, kComment };

  // Outside a quoted field or comment: the rows of `bytes` before its first quote end at once (at
  // the last LF before it), without the state machine. Returns where the machine goes on from (0
  // when nothing was skipped) and sets *last_row_end when rows ended.
  size_t SkipRowsWithoutQuotes(std::string_view bytes, int64_t* last_row_end);

  char delimiter_;
  char quote_;
  bool has_comment_;
  char comment_;
  State state_ = State::kRowStart;
  int64_t newlines_ = 0;
  int64_t newlines_at_row_end_ = 0;
};

}  // namespace recflow::csv
