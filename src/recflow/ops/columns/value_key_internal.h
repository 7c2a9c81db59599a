// ValueKey: the bytes that stand for a text, binary or integer value in vocabularies and hashes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/builder.h"
#include "recflow/core/result.h"
#include "recflow/ops/columns/column_util_internal.h"

namespace recflow::ops::internal {

/// True for the types with value keys: utf8, binary, large_utf8, large_binary, integers.
bool HasValueKey(const DataType& type);

/// The key of valid element `i` of `data` (HasValueKey type): the bytes of a text or binary
/// value, the decimal text of an integer ("-42"; formatted into *scratch).
std::string_view ValueKey(const ArrayData& data, int64_t i, std::string* scratch);

/// f(key) as int64 for every valid element of `column` (a HasValueKey type, or a list of one,
/// mapped element by element into list<int64>); nulls stay null. TypeError naming `op` for
/// other types.
template <typename F>
Result<std::shared_ptr<ArrayData>> MapKeysToInt64(const ArrayData& column, const char* op, F&& f) {
  if (column.type->id() == TypeId::kList) {
    ASSIGN_OR_RETURN(auto values, MapKeysToInt64(*ListValuesSlice(column), op, f));
    return RebuildList(column, std::move(values));
  }
  if (!HasValueKey(*column.type)) {
    return Status::TypeError(std::string(op) + ": column is " + column.type->ToString() +
                             " (takes utf8, binary, integers and lists of them)");
  }
  Int64Builder builder;
  RETURN_NOT_OK(builder.Reserve(column.length));
  std::string scratch;
  for (int64_t i = 0; i < column.length; ++i) {
    if (IsValidAt(column, i)) {
      RETURN_NOT_OK(builder.Append(f(ValueKey(column, i, &scratch))));
    } else {
      RETURN_NOT_OK(builder.AppendNull());
    }
  }
  return builder.Finish();
}

}  // namespace recflow::ops::internal
