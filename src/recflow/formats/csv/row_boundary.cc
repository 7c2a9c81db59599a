// RowStartsAtOrAfter: one Chunker pass, fed up to each position and then one line at a time.
#include "recflow/formats/csv/row_boundary.h"

#include <algorithm>
#include <cstring>

#include "recflow/formats/csv/chunker.h"

namespace recflow::csv {

std::vector<int64_t> RowStartsAtOrAfter(std::string_view data, const Dialect& dialect,
                                        std::span<const int64_t> positions) {
  const auto size = static_cast<int64_t>(data.size());
  Chunker chunker(dialect);
  int64_t scanned = 0;    // data[0, scanned) went through the chunker
  int64_t row_start = 0;  // the last row start found
  std::vector<int64_t> starts;
  starts.reserve(positions.size());
  for (const int64_t position : positions) {
    // A row starts at p > 0 when the LF at p - 1 ends a row: scan up to p - 1, then line by line.
    const int64_t target = std::clamp<int64_t>(position, 0, size);
    if (target > row_start && target - 1 > scanned) {
      chunker.Scan(data.substr(static_cast<size_t>(scanned), static_cast<size_t>(target - 1 - scanned)));
      scanned = target - 1;
    }
    while (row_start < target && scanned < size) {
      const void* lf = std::memchr(data.data() + scanned, '\n', static_cast<size_t>(size - scanned));
      const int64_t piece_end = lf == nullptr ? size : static_cast<const char*>(lf) - data.data() + 1;
      const int64_t cut = chunker.Scan(data.substr(static_cast<size_t>(scanned), static_cast<size_t>(piece_end - scanned)));
      if (cut >= 0) row_start = scanned + cut;
      scanned = piece_end;
    }
    if (row_start < target) row_start = size;
    starts.push_back(row_start);
  }
  return starts;
}

int64_t HeaderRowEnd(std::string_view data, const Dialect& dialect) {
  const auto size = static_cast<int64_t>(data.size());
  Chunker chunker(dialect);
  int64_t row_start = data.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  for (int64_t scanned = 0; scanned < size;) {
    const void* lf = std::memchr(data.data() + scanned, '\n', static_cast<size_t>(size - scanned));
    const int64_t piece_end = lf == nullptr ? size : static_cast<const char*>(lf) - data.data() + 1;
    const int64_t cut = chunker.Scan(data.substr(static_cast<size_t>(scanned), static_cast<size_t>(piece_end - scanned)));
    scanned = piece_end;
    if (cut < 0) continue;
    const bool comment = dialect.comment.has_value() && row_start < size && data[static_cast<size_t>(row_start)] == *dialect.comment;
    if (!comment) return piece_end;
    row_start = piece_end;
  }
  return size;
}

}  // namespace recflow::csv
