// The expression tree of a parsed filter predicate, evaluated in three-valued logic.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/ops/columns/scalar.h"

namespace recflow::ops::internal {

/// SQL truth values.
enum class Truth : uint8_t { kFalse, kTrue, kUnknown };

/// Comparison operators of a test.
enum class CompareOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe, kIn };

/// "==", "!=", "<", "<=", ">", ">=", "in".
const char* CompareOpName(CompareOp op);

/// One node of a predicate.
class Node {
 public:
  virtual ~Node() = default;
  /// One truth value per row of `batch` into *out (resized).
  virtual Status Evaluate(const RecordBatch& batch, std::vector<Truth>* out) const = 0;
  /// Fully parenthesized text.
  virtual std::string ToString() const = 0;
};

/// A reference to column `index` of the parse schema, checked again against each batch.
struct ColumnRef {
  int index = 0;
  FieldPtr field;
};

/// `left and right` / `left or right`.
std::unique_ptr<Node> MakeLogical(bool is_and, std::unique_ptr<Node> left, std::unique_ptr<Node> right);
/// `not child`.
std::unique_ptr<Node> MakeNot(std::unique_ptr<Node> child);
/// `column is null` / `column is not null`.
std::unique_ptr<Node> MakeIsNull(ColumnRef column, bool negated);
/// A bool column used as a test.
std::unique_ptr<Node> MakeBoolColumn(ColumnRef column);
/// `column op literal` (one literal) or `column in [literals]`. InvalidArgument (without a
/// position: the parser adds it) when a literal does not fit the column's type or the operator
/// does not apply to it.
Result<std::unique_ptr<Node>> MakeCompare(ColumnRef column, CompareOp op, const std::vector<Scalar>& literals);

}  // namespace recflow::ops::internal
