// Cast: dispatch by type kind, lists element by element.
#include "recflow/ops/columns/cast.h"

#include "recflow/ops/columns/cast_internal.h"

namespace recflow::ops {

namespace {

enum class Kind { kNull, kNumber, kBool, kTemporal, kText, kList, kOther };

Kind KindOf(const DataType& type) {
  switch (type.id()) {
    case TypeId::kNull: return Kind::kNull;
    case TypeId::kBool: return Kind::kBool;
    case TypeId::kDate32:
    case TypeId::kTimestamp: return Kind::kTemporal;
    case TypeId::kUtf8:
    case TypeId::kBinary:
    case TypeId::kLargeUtf8:
    case TypeId::kLargeBinary: return Kind::kText;
    case TypeId::kList: return Kind::kList;
    default: return internal::IsNumeric(type) ? Kind::kNumber : Kind::kOther;
  }
}

bool IsNumberLike(Kind kind) { return kind == Kind::kNumber || kind == Kind::kBool || kind == Kind::kTemporal; }

/// A type Cast can build: utf8 / binary (not large), number-like, or lists of them.
bool IsCastTarget(const DataType& type) {
  if (type.id() == TypeId::kList) return IsCastTarget(*type.value_type());
  return type.id() == TypeId::kUtf8 || type.id() == TypeId::kBinary || IsNumberLike(KindOf(type));
}

}  // namespace

bool CanCast(const DataType& from, const DataType& to) {
  if (from.Equals(to)) return true;
  if (!IsCastTarget(to)) return false;
  const Kind f = KindOf(from);
  const Kind t = KindOf(to);
  switch (f) {
    case Kind::kNull: return true;
    case Kind::kList: return t == Kind::kList && CanCast(*from.value_type(), *to.value_type());
    case Kind::kText: return t != Kind::kList;
    case Kind::kNumber: return t != Kind::kList;
    case Kind::kBool: return t != Kind::kList && t != Kind::kTemporal;
    case Kind::kTemporal: return t == Kind::kNumber || t == Kind::kText;
    case Kind::kOther: return false;
  }
  return false;
}

Result<std::shared_ptr<ArrayData>> Cast(const ArrayData& column, const DataTypePtr& to, RowErrors& errors) {
  if (column.type->Equals(*to)) return std::make_shared<ArrayData>(column);
  if (!CanCast(*column.type, *to)) {
    return Status::TypeError("cannot cast " + column.type->ToString() + " to " + to->ToString());
  }
  switch (KindOf(*column.type)) {
    case Kind::kNull: {
      ASSIGN_OR_RETURN(std::unique_ptr<ArrayBuilder> builder, MakeBuilder(to));
      RETURN_NOT_OK(builder->AppendNulls(column.length));
      return builder->Finish();
    }
    case Kind::kList: {
      std::shared_ptr<ArrayData> values = internal::ListValuesSlice(column);
      RowErrors element_errors;
      ASSIGN_OR_RETURN(auto cast_values, Cast(*values, to->value_type(), element_errors));
      int64_t last_row = -1;
      for (const RowError& error : element_errors.errors()) {
        const int64_t row = internal::ListRowOf(column, error.row);
        if (row != last_row) errors.Add(row, error.status);
        last_row = row;
      }
      ASSIGN_OR_RETURN(auto out, internal::RebuildList(column, std::move(cast_values)));
      out->type = to;
      return out;
    }
    case Kind::kText: return internal::ParseText(column, to, errors);
    default: break;
  }
  if (to->is_binary_like()) return internal::FormatText(column, to, errors);
  return internal::CastNumbers(column, to, errors);
}

}  // namespace recflow::ops
