// Scalar → one-element array, through the builders and Cast.
#include "recflow/ops/columns/scalar.h"

#include "recflow/columnar/builder.h"
#include "recflow/columnar/value_formatting.h"
#include "recflow/ops/columns/cast.h"

namespace recflow::ops {

std::string ScalarToString(const Scalar& value) {
  std::string out;
  switch (value.index()) {
    case 0: return "null";
    case 1: return std::get<bool>(value) ? "true" : "false";
    case 2: AppendInteger(std::get<int64_t>(value), &out); return out;
    case 3: AppendFloat(std::get<double>(value), &out); return out;
    default: break;
  }
  out = "'";
  for (const char c : std::get<std::string>(value)) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

Result<std::shared_ptr<ArrayData>> ScalarToArray(const Scalar& value, const DataTypePtr& type) {
  std::shared_ptr<ArrayData> single;
  switch (value.index()) {
    case 0: {
      NullBuilder builder;
      RETURN_NOT_OK(builder.AppendNull());
      ASSIGN_OR_RETURN(single, builder.Finish());
      break;
    }
    case 1: {
      BooleanBuilder builder;
      RETURN_NOT_OK(builder.Append(std::get<bool>(value)));
      ASSIGN_OR_RETURN(single, builder.Finish());
      break;
    }
    case 2: {
      Int64Builder builder;
      RETURN_NOT_OK(builder.Append(std::get<int64_t>(value)));
      ASSIGN_OR_RETURN(single, builder.Finish());
      break;
    }
    case 3: {
      Float64Builder builder;
      RETURN_NOT_OK(builder.Append(std::get<double>(value)));
      ASSIGN_OR_RETURN(single, builder.Finish());
      break;
    }
    default: {
      BinaryBuilder builder(utf8());
      RETURN_NOT_OK(builder.Append(std::get<std::string>(value)));
      ASSIGN_OR_RETURN(single, builder.Finish());
      break;
    }
  }
  RowErrors errors;
  auto cast = Cast(*single, type, errors);
  if (!cast.ok()) {
    return Status::InvalidArgument("the value " + ScalarToString(value) + " cannot be a " + type->ToString() + ": " +
                                   cast.status().message());
  }
  if (!errors.empty()) {
    return Status::InvalidArgument("the value " + ScalarToString(value) + " is not a valid " + type->ToString() + ": " +
                                   errors.errors()[0].status.message());
  }
  return cast;
}

}  // namespace recflow::ops
