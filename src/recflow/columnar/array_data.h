// ArrayData: the physical Arrow layout of a column (buffers, offset, children) and O(1) slicing.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "recflow/columnar/type.h"
#include "recflow/core/buffer.h"

namespace recflow {

/// The buffers of one column, laid out exactly as the Arrow columnar format (and the C Data
/// Interface) prescribes, so they can be exported without copying.
///
/// Buffer order per type:
///  - null: {} (no buffers; null_count == length)
///  - bool / integers / floats: {validity, values} (bool values are LSB-first bits)
///  - binary / utf8: {validity, int32 offsets (offset+length+1 entries), data}
///  - list: {validity, int32 offsets (offset+length+1 entries)}; children = {values}
///  - struct: {validity}; children = one per field
///  - float16, decimals, dates, times, timestamp, duration, interval, fixed_size_binary:
///    {validity, values} of DataType::bit_width() / 8 bytes each
///  - large_binary / large_utf8: {validity, int64 offsets, data}
///  - large_list: {validity, int64 offsets}; children = {values}
///  - map: as list (int32 offsets); children = {entries struct<key, value>}
///  - fixed_size_list: {validity}; children = {values}; element i holds child slots
///    (offset + i) × list_size ... + list_size - 1
///  - union: {nullptr, int8 type codes} (sparse) or {nullptr, int8 type codes, int32 offsets}
///    (dense); children = one per field; no validity (null_count 0: nulls live in the
///    children); sparse children are indexed like struct children, dense ones through offsets
///  - dictionary: {validity, indices of DataType::params().index_type}; `dictionary` holds the
///    values
///  - binary_view / utf8_view: {validity, views, data buffers...}: 16 bytes per element, an
///    int32 size, then the bytes themselves when size <= 12 (zero-padded), else their first 4
///    bytes, an int32 index into the data buffers (buffers[2 + index]) and an int32 offset there
///  - list_view / large_list_view: {validity, offsets, sizes} (int32 / int64 each); children =
///    {values}; element i holds child slots offsets[i] ... offsets[i] + sizes[i] - 1, in any
///    order and possibly overlapping
///  - run_end_encoded: {} (no buffers, null_count 0: nulls live in the values); children =
///    {run_ends (int16/32/64, strictly increasing, no nulls), values}; logical slot s lies in
///    the first run whose end exceeds s, and takes that run's value
///  - decimal32 / decimal64: {validity, values} of 4 / 8 bytes each
/// The validity buffer may be nullptr when null_count == 0. Offsets are absolute positions in
/// the data buffer / child array. `offset` is Arrow's: element i of this array is slot
/// offset + i of every buffer; struct children are indexed with the struct's offset too
/// (child slot = struct offset + i + child offset), list children through the offsets.
struct ArrayData {
  DataTypePtr type;        ///< the logical type; decides the buffer layout
  int64_t length = 0;      ///< number of elements
  int64_t null_count = 0;  ///< exact (never "unknown")
  int64_t offset = 0;      ///< logical offset into the buffers (slicing is O(1))
  std::vector<std::shared_ptr<Buffer>> buffers;          ///< in Arrow's order (see above)
  std::vector<std::shared_ptr<ArrayData>> children;      ///< list: {values}; struct: one per field
  std::shared_ptr<ArrayData> dictionary;                 ///< dictionary type only: the values

  /// Convenience constructor of a shared ArrayData.
  static std::shared_ptr<ArrayData> Make(DataTypePtr type, int64_t length,
                                         std::vector<std::shared_ptr<Buffer>> buffers, int64_t null_count,
                                         int64_t offset = 0,
                                         std::vector<std::shared_ptr<ArrayData>> children = {});

  /// A zero-copy view of elements [offset, offset + length) of this array, with null_count
  /// recomputed from the validity bitmap. The range is clamped to the array.
  std::shared_ptr<ArrayData> Slice(int64_t offset, int64_t length) const;

  /// The validity bitmap (bit `offset` is element 0), or nullptr when there is none.
  const uint8_t* validity() const { return buffers.empty() || !buffers[0] ? nullptr : buffers[0]->data(); }

  /// Buffer i reinterpreted as T*, already advanced by `offset` elements (for values and
  /// offsets buffers); nullptr when absent.
  template <typename T>
  const T* GetValues(int i) const {
    if (static_cast<size_t>(i) >= buffers.size() || !buffers[static_cast<size_t>(i)]) return nullptr;
    return reinterpret_cast<const T*>(buffers[static_cast<size_t>(i)]->data()) + offset;
  }
};

/// Number of nulls of the element range [offset, offset + length) of `data`'s buffers
/// (length for the null type, 0 without a validity bitmap).
int64_t ComputeNullCount(const ArrayData& data, int64_t offset, int64_t length);

}  // namespace recflow
