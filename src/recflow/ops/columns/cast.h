// Cast: convert a column to another type, reporting the rows that do not convert instead of wrapping.
#pragma once

#include <memory>

#include "recflow/columnar/array_data.h"
#include "recflow/core/result.h"
#include "recflow/ops/row_errors.h"

namespace recflow::ops {

/// True when Cast supports converting `from` to `to`:
///  - equal types (the column is returned as is);
///  - null → any of the types below (all nulls);
///  - integers, float32/64, bool, date32 (int32 days) and timestamp (int64 in its unit) among
///    each other, except between two different temporal types and between bool and temporal;
///  - utf8, large_utf8, binary, large_binary → integers, floats, bool, date32, timestamp, utf8,
///    binary (parsed as text);
///  - integers, floats, bool, date32, timestamp → utf8, binary (formatted as text);
///  - list<T> → list<U> when T → U is supported (element by element).
bool CanCast(const DataType& from, const DataType& to);

/// `column` converted to `to` (see CanCast; TypeError naming both types otherwise). Nulls stay
/// null. A value that does not convert becomes null and its row is reported in `errors`
/// (once per row; list elements are nulled where they fail):
///  - integer → integer out of the target's range; float → integer when not finite, not
///    integral or out of range; float64 → float32 when finite but beyond float32's range
///    (NaN and ±inf stay as they are); int → float rounds to nearest;
///  - numbers → bool: zero is false, anything else (NaN too) is true; bool → numbers: 0 / 1;
///  - text → integer: a decimal integer, or a float text with an integral value ("1e3");
///    text → float: as std::from_chars (plus "+", "inf", "nan"); text → bool: true/false
///    in any case; text → date32: YYYY-MM-DD (a time part must be midnight); text → timestamp:
///    ISO-8601 as the CSV reader parses it (UTC unless an offset is given), a fraction finer
///    than the unit is a row error. Spaces around the text are ignored;
///  - binary → utf8: invalid UTF-8 is a row error;
///  - to text: integers in decimal, floats in the shortest round-trip form ("0.1", "inf",
///    "nan"), bool as true/false, date32 as YYYY-MM-DD, timestamps as
///    YYYY-MM-DDTHH:MM:SS[.fraction] plus Z when the type has a time zone (years outside
///    0000..9999 are row errors).
Result<std::shared_ptr<ArrayData>> Cast(const ArrayData& column, const DataTypePtr& to, RowErrors& errors);

}  // namespace recflow::ops
