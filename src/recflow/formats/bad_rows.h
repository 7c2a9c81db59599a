// The bad-row policy every row-oriented reader shares (CSV, JSON Lines): fail on a row it cannot read, or skip it and report it.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "recflow/core/status.h"

namespace recflow::formats {

/// What a reader does with a row or record it cannot read (wrong field count, unparsable value).
enum class BadRowsMode : uint8_t {
  kFail,  ///< stop with a DataError naming file, line, column and byte offset
  kSkip,  ///< leave the row out, count it and report it to the reader's on_bad_row handler
};

/// A row or record left out under BadRowsMode::kSkip.
struct BadRow {
  /// The row's bytes without its line terminator; valid only during the callback.
  std::string_view text;
  /// 1-based line where the row starts (embedded newlines counted).
  int64_t line = 0;
  /// Why it was left out: a DataError with file, offset, record and (for values) field.
  Status error;
};

/// Called once per skipped row, in input order.
using BadRowHandler = std::function<void(const BadRow&)>;

}  // namespace recflow::formats
