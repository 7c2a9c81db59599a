// Predicate nodes: and/or/not, null tests, bool columns and comparisons with literals.
#include "recflow/ops/columns/predicate_nodes_internal.h"

#include <cmath>
#include <string_view>
#include <utility>

#include "recflow/columnar/element_access.h"
#include "recflow/ops/columns/column_util_internal.h"

namespace recflow::ops::internal {

namespace {

/// Result of comparing a value with a literal: less, equal, greater, or unordered (NaN).
enum class Order : uint8_t { kLess, kEqual, kGreater, kUnordered };

/// A literal prepared for one column kind.
struct Literal {
  bool is_int = false;
  int64_t int_value = 0;  ///< integers, bools (0/1), dates and timestamps
  double float_value = 0;
  std::string text;
};

Status CheckColumn(const RecordBatch& batch, const ColumnRef& column) {
  if (column.index >= batch.num_columns() || batch.schema()->field(column.index)->name() != column.field->name() ||
      !batch.schema()->field(column.index)->type()->Equals(*column.field->type())) {
    return Status::InvalidArgument("filter: the batch does not have column '" + column.field->name() + "' (" +
                                   column.field->type()->ToString() + ") at position " + std::to_string(column.index) +
                                   " as the filter was parsed for");
  }
  return Status::OK();
}

template <typename T>
Order CompareNumber(T value, const Literal& literal) {
  if constexpr (std::is_integral_v<T>) {
    if (literal.is_int) {
      if (std::cmp_less(value, literal.int_value)) return Order::kLess;
      return std::cmp_equal(value, literal.int_value) ? Order::kEqual : Order::kGreater;
    }
  }
  const double x = static_cast<double>(value);
  const double y = literal.is_int ? static_cast<double>(literal.int_value) : literal.float_value;
  if (x < y) return Order::kLess;
  if (x > y) return Order::kGreater;
  if (x == y) return Order::kEqual;
  return Order::kUnordered;
}

template <typename T>
Order CompareValues(const T& a, const T& b) {
  if (a < b) return Order::kLess;
  return a == b ? Order::kEqual : Order::kGreater;
}

bool Holds(CompareOp op, Order order) {
  switch (op) {
    case CompareOp::kEq:
    case CompareOp::kIn: return order == Order::kEqual;
    case CompareOp::kNe: return order != Order::kEqual;
    case CompareOp::kLt: return order == Order::kLess;
    case CompareOp::kLe: return order == Order::kLess || order == Order::kEqual;
    case CompareOp::kGt: return order == Order::kGreater;
    case CompareOp::kGe: return order == Order::kGreater || order == Order::kEqual;
  }
  return false;
}

class LogicalNode final : public Node {
 public:
  LogicalNode(bool is_and, std::unique_ptr<Node> left, std::unique_ptr<Node> right)
      : is_and_(is_and), left_(std::move(left)), right_(std::move(right)) {}

  Status Evaluate(const RecordBatch& batch, std::vector<Truth>* out) const override {
    std::vector<Truth> right;
    RETURN_NOT_OK(left_->Evaluate(batch, out));
    RETURN_NOT_OK(right_->Evaluate(batch, &right));
    const Truth dominant = is_and_ ? Truth::kFalse : Truth::kTrue;
    for (size_t i = 0; i < out->size(); ++i) {
      Truth& a = (*out)[i];
      const Truth b = right[i];
      if (a == dominant || b == dominant) {
        a = dominant;
      } else if (a == Truth::kUnknown || b == Truth::kUnknown) {
        a = Truth::kUnknown;
      }
    }
    return Status::OK();
  }
  std::string ToString() const override {
    return "(" + left_->ToString() + (is_and_ ? " and " : " or ") + right_->ToString() + ")";
  }

 private:
  bool is_and_;
  std::unique_ptr<Node> left_;
  std::unique_ptr<Node> right_;
};

class NotNode final : public Node {
 public:
  explicit NotNode(std::unique_ptr<Node> child) : child_(std::move(child)) {}
  Status Evaluate(const RecordBatch& batch, std::vector<Truth>* out) const override {
    RETURN_NOT_OK(child_->Evaluate(batch, out));
    for (Truth& t : *out) {
      if (t != Truth::kUnknown) t = t == Truth::kTrue ? Truth::kFalse : Truth::kTrue;
    }
    return Status::OK();
  }
  std::string ToString() const override { return "(not " + child_->ToString() + ")"; }

 private:
  std::unique_ptr<Node> child_;
};

class IsNullNode final : public Node {
 public:
  IsNullNode(ColumnRef column, bool negated) : column_(std::move(column)), negated_(negated) {}
  Status Evaluate(const RecordBatch& batch, std::vector<Truth>* out) const override {
    RETURN_NOT_OK(CheckColumn(batch, column_));
    const ArrayData& data = *batch.column_data(column_.index);
    out->resize(static_cast<size_t>(batch.num_rows()));
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      (*out)[static_cast<size_t>(i)] = IsValidAt(data, i) == negated_ ? Truth::kTrue : Truth::kFalse;
    }
    return Status::OK();
  }
  std::string ToString() const override { return "(" + column_.field->name() + (negated_ ? " is not null)" : " is null)"); }

 private:
  ColumnRef column_;
  bool negated_;
};

class BoolColumnNode final : public Node {
 public:
  explicit BoolColumnNode(ColumnRef column) : column_(std::move(column)) {}
  Status Evaluate(const RecordBatch& batch, std::vector<Truth>* out) const override {
    RETURN_NOT_OK(CheckColumn(batch, column_));
    const ArrayData& data = *batch.column_data(column_.index);
    out->resize(static_cast<size_t>(batch.num_rows()));
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      Truth t = Truth::kUnknown;
      if (IsValidAt(data, i)) t = bit_util::GetBit(data.buffers[1]->data(), data.offset + i) ? Truth::kTrue : Truth::kFalse;
      (*out)[static_cast<size_t>(i)] = t;
    }
    return Status::OK();
  }
  std::string ToString() const override { return column_.field->name(); }

 private:
  ColumnRef column_;
};

class CompareNode final : public Node {
 public:
  CompareNode(ColumnRef column, CompareOp op, std::vector<Literal> literals, std::string literal_text)
      : column_(std::move(column)), op_(op), literals_(std::move(literals)), literal_text_(std::move(literal_text)) {}

  Status Evaluate(const RecordBatch& batch, std::vector<Truth>* out) const override {
    RETURN_NOT_OK(CheckColumn(batch, column_));
    const ArrayData& data = *batch.column_data(column_.index);
    out->resize(static_cast<size_t>(batch.num_rows()));
    const auto run = [&](auto&& compare) {
      for (int64_t i = 0; i < batch.num_rows(); ++i) {
        Truth t = Truth::kUnknown;
        if (IsValidAt(data, i)) {
          t = Truth::kFalse;
          for (const Literal& literal : literals_) {
            if (Holds(op_, compare(i, literal))) {
              t = Truth::kTrue;
              break;
            }
          }
        }
        (*out)[static_cast<size_t>(i)] = t;
      }
    };
    const TypeId id = data.type->id();
    if (id == TypeId::kBool) {
      const uint8_t* bits = data.buffers[1]->data();
      run([&](int64_t i, const Literal& l) {
        return CompareValues<int64_t>(bit_util::GetBit(bits, data.offset + i) ? 1 : 0, l.int_value);
      });
    } else if (id == TypeId::kDate32 || id == TypeId::kTimestamp) {
      run([&](int64_t i, const Literal& l) { return CompareValues(IntegerValue(data, i), l.int_value); });
    } else if (!VisitNumericType(id, [&](auto tag) {
                 const auto* values = data.GetValues<decltype(tag)>(1);
                 run([&](int64_t i, const Literal& l) { return CompareNumber(values[i], l); });
               })) {
      run([&](int64_t i, const Literal& l) { return CompareValues(BinaryValue(data, i), std::string_view(l.text)); });
    }
    return Status::OK();
  }
  std::string ToString() const override {
    return "(" + column_.field->name() + " " + CompareOpName(op_) + " " + literal_text_ + ")";
  }

 private:
  ColumnRef column_;
  CompareOp op_;
  std::vector<Literal> literals_;
  std::string literal_text_;
};

/// `value` prepared for comparison with a column of `type`.
Result<Literal> PrepareLiteral(const DataTypePtr& type, CompareOp op, const Scalar& value) {
  const std::string what = "cannot compare " + type->ToString() + " column with " + ScalarToString(value);
  Literal literal;
  if (std::holds_alternative<std::monostate>(value)) {
    return Status::InvalidArgument("comparisons with null are never true; use 'is null' or 'is not null'");
  }
  if (IsNumeric(*type)) {
    if (const auto* i = std::get_if<int64_t>(&value)) {
      literal.is_int = true;
      literal.int_value = *i;
    } else if (const auto* d = std::get_if<double>(&value)) {
      literal.float_value = *d;
    } else {
      return Status::InvalidArgument(what);
    }
  } else if (type->id() == TypeId::kBool) {
    const auto* b = std::get_if<bool>(&value);
    if (b == nullptr) return Status::InvalidArgument(what);
    if (op != CompareOp::kEq && op != CompareOp::kNe && op != CompareOp::kIn) {
      return Status::InvalidArgument(std::string("bool columns take == and !=, not ") + CompareOpName(op));
    }
    literal.int_value = *b ? 1 : 0;
  } else if (type->id() == TypeId::kDate32 || type->id() == TypeId::kTimestamp) {
    if (!std::holds_alternative<std::string>(value)) return Status::InvalidArgument(what + " (write dates as text)");
    ASSIGN_OR_RETURN(auto single, ScalarToArray(value, type));
    literal.int_value = IntegerValue(*single, 0);
  } else if (type->is_binary_like() || type->id() == TypeId::kLargeUtf8 || type->id() == TypeId::kLargeBinary) {
    const auto* s = std::get_if<std::string>(&value);
    if (s == nullptr) return Status::InvalidArgument(what);
    literal.text = *s;
  } else {
    return Status::InvalidArgument("cannot filter on " + type->ToString() + " columns");
  }
  return literal;
}

}  // namespace

const char* CompareOpName(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return "==";
    case CompareOp::kNe: return "!=";
    case CompareOp::kLt: return "<";
    case CompareOp::kLe: return "<=";
    case CompareOp::kGt: return ">";
    case CompareOp::kGe: return ">=";
    case CompareOp::kIn: return "in";
  }
  return "?";
}

std::unique_ptr<Node> MakeLogical(bool is_and, std::unique_ptr<Node> left, std::unique_ptr<Node> right) {
  return std::make_unique<LogicalNode>(is_and, std::move(left), std::move(right));
}

std::unique_ptr<Node> MakeNot(std::unique_ptr<Node> child) { return std::make_unique<NotNode>(std::move(child)); }

std::unique_ptr<Node> MakeIsNull(ColumnRef column, bool negated) {
  return std::make_unique<IsNullNode>(std::move(column), negated);
}

std::unique_ptr<Node> MakeBoolColumn(ColumnRef column) { return std::make_unique<BoolColumnNode>(std::move(column)); }

Result<std::unique_ptr<Node>> MakeCompare(ColumnRef column, CompareOp op, const std::vector<Scalar>& literals) {
  std::vector<Literal> prepared;
  std::string text = op == CompareOp::kIn ? "[" : "";
  for (const Scalar& value : literals) {
    ASSIGN_OR_RETURN(Literal literal, PrepareLiteral(column.field->type(), op, value));
    prepared.push_back(std::move(literal));
    if (text.size() > 1) text += ", ";
    text += ScalarToString(value);
  }
  if (op == CompareOp::kIn) text += "]";
  return std::unique_ptr<Node>(std::make_unique<CompareNode>(std::move(column), op, std::move(prepared), std::move(text)));
}

}  // namespace recflow::ops::internal
