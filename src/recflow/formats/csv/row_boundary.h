// Where CSV rows start, found quote-aware from the start of the file (a quoted field may hold a newline).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "recflow/formats/csv/read_options.h"

namespace recflow::csv {

/// For each of `positions` (ascending), the first row start at or after it in `data`: 0, or
/// just past an LF that ends a row, or data.size(). The bytes are scanned once from their start
/// with the Chunker (the parser's own state machine), so an LF inside a quoted field is never
/// taken for a row end: no byte-local rule can tell, since whether a byte is inside quotes
/// depends on every quote before it. The scan stops at the last position's row start.
std::vector<int64_t> RowStartsAtOrAfter(std::string_view data, const Dialect& dialect,
                                        std::span<const int64_t> positions);

/// The offset just past the header row of `data`: the first row that is not a comment line (a
/// row whose first byte, after a UTF-8 BOM at the very start, is the dialect's comment
/// character), found quote-aware as above; data.size() when there is none.
int64_t HeaderRowEnd(std::string_view data, const Dialect& dialect);

}  // namespace recflow::csv
