// Shared helpers of the column ops: validity tests, numeric type dispatch, column lookup errors.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"

namespace recflow::ops::internal {

using recflow::IsValidAt;  // columnar/element_access.h

/// Calls `f(T{})` with the C type T of a numeric type id (int8..uint64, float32, float64) and
/// returns true, or returns false for other ids.
template <typename F>
bool VisitNumericType(TypeId id, F&& f) {
  switch (id) {
    case TypeId::kInt8: f(int8_t{}); return true;
    case TypeId::kInt16: f(int16_t{}); return true;
    case TypeId::kInt32: f(int32_t{}); return true;
    case TypeId::kInt64: f(int64_t{}); return true;
    case TypeId::kUInt8: f(uint8_t{}); return true;
    case TypeId::kUInt16: f(uint16_t{}); return true;
    case TypeId::kUInt32: f(uint32_t{}); return true;
    case TypeId::kUInt64: f(uint64_t{}); return true;
    case TypeId::kFloat32: f(float{}); return true;
    case TypeId::kFloat64: f(double{}); return true;
    default: return false;
  }
}

/// True for integers, float32 and float64.
inline bool IsNumeric(const DataType& type) { return type.is_integer() || type.is_floating(); }

/// `s` without the spaces and tabs around it.
inline std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// "a, b, c": the column names of `schema`, for error messages.
std::string ColumnNames(const Schema& schema);

/// The index of column `name` in `schema`, or an InvalidArgument naming `op`, the column and
/// the available ones.
Result<int> FindColumn(const Schema& schema, std::string_view name, std::string_view op);

/// A fresh validity bitmap of `data`'s elements starting at bit 0, or nullptr when `data` has
/// no nulls.
Result<std::shared_ptr<Buffer>> CopyValidity(const ArrayData& data);

/// Writable bytes of a buffer this op just allocated (Buffer::Allocate) and still owns alone.
inline uint8_t* MutableBytes(const std::shared_ptr<Buffer>& buffer) { return const_cast<uint8_t*>(buffer->data()); }

/// The elements of list `data`'s child that its rows reference, as one zero-copy slice
/// (child elements offsets[0] .. offsets[length]).
std::shared_ptr<ArrayData> ListValuesSlice(const ArrayData& data);

/// A list of `values` (which stands for ListValuesSlice(data) element for element) with the rows,
/// validity and lengths of list `data`: list<values->type> with data's item name and nullability.
Result<std::shared_ptr<ArrayData>> RebuildList(const ArrayData& data, std::shared_ptr<ArrayData> values);

/// The row of list `data` that holds element `k` of ListValuesSlice(data).
int64_t ListRowOf(const ArrayData& data, int64_t k);

}  // namespace recflow::ops::internal
