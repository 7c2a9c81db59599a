// Typed read-only views over ArrayData (Int64Array, BinaryArray, ListArray, ...).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/bit_util.h"

namespace recflow {

/// A read-only view of a column. The views trust their ArrayData: run ValidateFull() on data
/// from outside first. Index arguments are logical (0 <= i < length()).
class Array {
 public:
  /// Wraps `data` (must not be null).
  explicit Array(std::shared_ptr<ArrayData> data);
  virtual ~Array() = default;

  /// Number of elements.
  int64_t length() const { return data_->length; }
  /// Number of null elements.
  int64_t null_count() const { return data_->null_count; }
  /// Offset of element 0 in the buffers.
  int64_t offset() const { return data_->offset; }
  /// The column type.
  const DataTypePtr& type() const { return data_->type; }
  /// The underlying buffers.
  const std::shared_ptr<ArrayData>& data() const { return data_; }

  /// True when element i is null (always for the null type).
  bool IsNull(int64_t i) const {
    return null_bitmap_ != nullptr ? !bit_util::GetBit(null_bitmap_, data_->offset + i) : all_null_;
  }
  /// True when element i is not null.
  bool IsValid(int64_t i) const { return !IsNull(i); }

 protected:
  std::shared_ptr<ArrayData> data_;
  const uint8_t* null_bitmap_;
  bool all_null_;
};

/// Fixed-width numbers: int8..int64, uint8..uint64, float32, float64.
template <typename T>
class NumericArray : public Array {
 public:
  /// Wraps numeric `data` of the type matching T.
  explicit NumericArray(std::shared_ptr<ArrayData> data)
      : Array(std::move(data)), values_(data_->GetValues<T>(1)) {}
  /// Value i (unspecified, but readable, when null).
  T Value(int64_t i) const { return values_[i]; }
  /// The values, already advanced by offset(): raw_values()[i] is element i.
  const T* raw_values() const { return values_; }

 private:
  const T* values_;
};

using Int8Array = NumericArray<int8_t>;
using Int16Array = NumericArray<int16_t>;
using Int32Array = NumericArray<int32_t>;
using Int64Array = NumericArray<int64_t>;
using UInt8Array = NumericArray<uint8_t>;
using UInt16Array = NumericArray<uint16_t>;
using UInt32Array = NumericArray<uint32_t>;
using UInt64Array = NumericArray<uint64_t>;
using Float32Array = NumericArray<float>;
using Float64Array = NumericArray<double>;

/// Booleans, bit-packed.
class BooleanArray : public Array {
 public:
  /// Wraps bool `data`.
  explicit BooleanArray(std::shared_ptr<ArrayData> data);
  /// Value i (false when null in arrays recflow built).
  bool Value(int64_t i) const { return bit_util::GetBit(values_, data_->offset + i); }

 private:
  const uint8_t* values_;
};

/// binary and utf8: variable-length byte strings with int32 offsets.
class BinaryArray : public Array {
 public:
  /// Wraps binary or utf8 `data`.
  explicit BinaryArray(std::shared_ptr<ArrayData> data);
  /// The bytes of element i (empty when null).
  std::string_view GetView(int64_t i) const {
    return {value_data_ + offsets_[i], static_cast<size_t>(offsets_[i + 1] - offsets_[i])};
  }
  /// Absolute start of element i in the data buffer.
  int32_t value_offset(int64_t i) const { return offsets_[i]; }
  /// Byte length of element i.
  int32_t value_length(int64_t i) const { return offsets_[i + 1] - offsets_[i]; }
  /// The offsets, already advanced by offset(): length() + 1 entries.
  const int32_t* raw_value_offsets() const { return offsets_; }
  /// The start of the data buffer (offsets index into it).
  const char* raw_data() const { return value_data_; }

 private:
  const int32_t* offsets_;
  const char* value_data_;
};

/// list<T>: element i is values()[value_offset(i), value_offset(i) + value_length(i)).
class ListArray : public Array {
 public:
  /// Wraps list `data`.
  explicit ListArray(std::shared_ptr<ArrayData> data);
  /// Absolute start of element i in values().
  int32_t value_offset(int64_t i) const { return offsets_[i]; }
  /// Number of values in element i.
  int32_t value_length(int64_t i) const { return offsets_[i + 1] - offsets_[i]; }
  /// The offsets, already advanced by offset(): length() + 1 entries.
  const int32_t* raw_value_offsets() const { return offsets_; }
  /// The child array, unsliced (the offsets index into it).
  std::shared_ptr<ArrayData> values() const { return data_->children[0]; }

 private:
  const int32_t* offsets_;
};

/// struct: one child per field, row-aligned with this array.
class StructArray : public Array {
 public:
  /// Wraps struct `data`.
  explicit StructArray(std::shared_ptr<ArrayData> data);
  /// Number of fields.
  int num_fields() const { return static_cast<int>(data_->children.size()); }
  /// Field i's child, sliced to this array's offset and length.
  std::shared_ptr<ArrayData> field(int i) const;
};

/// The null type: every element is null.
class NullArray : public Array {
 public:
  /// Wraps null-type `data`.
  explicit NullArray(std::shared_ptr<ArrayData> data) : Array(std::move(data)) {}
};

}  // namespace recflow
