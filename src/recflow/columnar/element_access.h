// Reading one element of any layout: binary views, list ranges, union children, dictionary indices.
#pragma once

#include <cstdint>
#include <string_view>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/bit_util.h"

namespace recflow {

/// Bytes of a binary view's value stored in the view itself.
inline constexpr int32_t kInlineViewBytes = 12;
/// Bytes of one binary view.
inline constexpr int64_t kViewBytes = 16;

/// The bytes of element `i` (logical) of a binary, utf8, large_binary, large_utf8,
/// fixed_size_binary, binary_view or utf8_view array.
std::string_view BinaryValue(const ArrayData& data, int64_t i);

/// Where element `i` (logical) of a list, large_list, fixed_size_list, map, list_view or
/// large_list_view array lives in
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

/// The run holding element `i` (logical) of a run_end_encoded array: the logical index of its
/// run end in the run_ends child, which is also its value's index in the values child. The
/// run ends must be valid (ValidateFull); found by binary search.
int64_t RunIndex(const ArrayData& data, int64_t i);

/// The end of run `run` (a logical index of the run_ends child) of a run_end_encoded array.
int64_t RunEnd(const ArrayData& data, int64_t run);

/// The value of element `i` (logical) of a fixed-width integer array of `data.type` (any of
/// int8..uint64, date32/64, time32/64, timestamp, duration), widened to int64 (uint64 bits kept).
int64_t IntegerValue(const ArrayData& data, int64_t i);

}  // namespace recflow
