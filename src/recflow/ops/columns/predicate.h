// Filter expressions: parse "age >= 18 and (country == 'DE' or not vip)" against a schema, select rows.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"

namespace recflow::ops {

/// A parsed, type-checked row predicate. Evaluation follows SQL's three-valued logic: a
/// comparison involving a null is unknown, `not unknown` is unknown, `false and unknown` is
/// false, `true or unknown` is true, and only rows whose predicate is true are selected.
class Predicate {
 public:
  virtual ~Predicate() = default;
  /// The indices of the rows of `batch` where the predicate is true, ascending. `batch` must
  /// have the columns the predicate was parsed against at the same positions with the same
  /// types (InvalidArgument otherwise).
  virtual Result<std::vector<int64_t>> SelectRows(const RecordBatch& batch) const = 0;
  /// The predicate fully parenthesized, e.g. "((age >= 18) and ((country == 'DE') or (not vip)))".
  virtual std::string ToString() const = 0;
};

/// Parses a filter expression and type-checks it against `schema`. Grammar (keywords in any
/// letter case; `not` binds tighter than `and`, which binds tighter than `or`):
///
///     expr    := and ("or" and)*
///     and     := unary ("and" unary)*
///     unary   := "not" unary | "(" expr ")" | test
///     test    := column op literal | literal op column
///              | column "is" ["not"] "null"
///              | column ["not"] "in" "[" literal ("," literal)* "]"
///              | column                      (a bool column)
///     op      := "==" | "=" | "!=" | "<>" | "<" | "<=" | ">" | ">="
///     literal := integer | float | 'text' | "text" | true | false
///     column  := name ([A-Za-z_][A-Za-z0-9_]*) | `any name` (in backquotes)
///
/// Texts take backslash escapes (\' \" \\). Numeric columns compare with integer and float
/// literals (exactly for integer against integer, as float64 otherwise; NaN is unordered);
/// utf8/binary columns with text (byte order); bool columns with true/false (== and != only);
/// date32 and timestamp columns with text in the form Cast parses ('2024-01-31',
/// '2024-01-31T12:00:00Z'). InvalidArgument naming the 1-based character position for syntax
/// errors, unknown columns (listing the available ones) and type mismatches. Expressions are
/// limited to 10,000 characters and 64 levels of parentheses and `not`.
Result<std::unique_ptr<Predicate>> ParsePredicate(std::string_view text, const Schema& schema);

/// The rows of `batch` where `predicate` is true (SelectRows then TakeRows).
Result<std::shared_ptr<RecordBatch>> Filter(const RecordBatch& batch, const Predicate& predicate);

}  // namespace recflow::ops
