// Reading one element of any layout: binary views, list ranges, union children, dictionary indices.
#pragma once

#include <cstdint>
#include <string_view>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/bit_util.h"

namespace recflow {

/// The bytes of element `i` (logical) of a binary, utf8, large_binary, large_utf8 or
/// fixed_size_binary array.
std::string_view BinaryValue(const ArrayData& data, int64_t i);

/// Where element `i` (logical) of a list, large_list, fixed_size_list or map array lives in
/// its child: `length` child elements from `start` (a child index, the child's own offset not
/// yet applied, as RangeEquals-style helpers expect logical child indices).
struct ChildRange {
  int64_t start = 0;
  int64_t length = 0;
};
ChildRange ListRange(const ArrayData& data, int64_t i);

/// The child of a union that holds element `i` (logical) and the element's logical index in
/// that child.
struct UnionSlot {
  int child = 0;
  int64_t index = 0;
};
UnionSlot UnionChildAt(const ArrayData& data, int64_t i);

/// True when element `i` (logical) of `data` is not null (never for the null type).
inline bool IsValidAt(const ArrayData& data, int64_t i) {
  if (data.type->id() == TypeId::kNull) return false;
  const uint8_t* validity = data.null_count > 0 ? data.validity() : nullptr;
  return validity == nullptr || bit_util::GetBit(validity, data.offset + i);
}

/// The dictionary index of element `i` (logical) of a dictionary array.
int64_t DictionaryIndex(const ArrayData& data, int64_t i);

/// The value of element `i` (logical) of a fixed-width integer array of `data.type` (any of
/// int8..uint64, date32/64, time32/64, timestamp, duration), widened to int64 (uint64 bits kept).
int64_t IntegerValue(const ArrayData& data, int64_t i);

}  // namespace recflow
