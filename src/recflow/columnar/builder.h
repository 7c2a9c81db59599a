// Builders: append values row by row (or in bulk) and Finish() into Arrow-layout ArrayData.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/type.h"
#include "recflow/core/buffer.h"
#include "recflow/core/result.h"

namespace recflow {

/// Largest byte size of a binary/utf8 data buffer and largest list child (int32 offsets).
inline constexpr int64_t kMaxInt32Offset = std::numeric_limits<int32_t>::max();

/// Base of all builders. The validity bitmap is allocated lazily, when the first null arrives
/// (earlier elements are back-filled as valid), so all-valid columns finish without one.
class ArrayBuilder {
 public:
  explicit ArrayBuilder(DataTypePtr type);
  virtual ~ArrayBuilder();
  ArrayBuilder(const ArrayBuilder&) = delete;
  ArrayBuilder& operator=(const ArrayBuilder&) = delete;

  /// The type of the arrays this builder makes.
  const DataTypePtr& type() const { return type_; }
  /// Elements appended since construction or the last Finish().
  int64_t length() const { return length_; }
  /// Nulls among them.
  int64_t null_count() const { return null_count_; }

  /// Appends one null (struct: also a null to every field builder).
  virtual Status AppendNull();
  /// Appends n nulls.
  virtual Status AppendNulls(int64_t n) = 0;
  /// Ensures room for `additional` more elements (not for binary data bytes or list children).
  virtual Status Reserve(int64_t additional) = 0;
  /// Returns the array built so far and resets the builder to empty for reuse.
  virtual Result<std::shared_ptr<ArrayData>> Finish() = 0;
  /// Drops the elements past the first `length` (clamped to [0, length()]) as if they had never
  /// been appended: values, validity, null count, and the children of the dropped lists and
  /// struct rows. The capacity is kept, so the rows appended next reuse it.
  virtual void Truncate(int64_t length) = 0;

 protected:
  /// Records n appended elements in the validity bitmap, length and null count (creating the
  /// bitmap on the first null).
  Status CommitAppend(int64_t n, bool valid);
  /// Records one valid element; the caller reserved the validity byte (ReserveValidity).
  void UnsafeCommitValid() {
    if (has_validity_) [[unlikely]] {
      if ((length_ & 7) == 0) validity_.UnsafeAppendValue<uint8_t>(0);
      bit_util::SetBit(validity_.mutable_data(), length_);
    }
    ++length_;
  }
  /// Reserves validity bytes for `additional` more elements (remembered for a bitmap created
  /// later).
  Status ReserveValidity(int64_t additional);
  /// Hands out the validity buffer (nullptr when there were no nulls) and resets length and
  /// null count.
  std::shared_ptr<Buffer> FinishValidity();
  /// Truncates length, null count and validity bitmap to `length` (≤ length()) elements.
  void TruncateValidity(int64_t length);

  DataTypePtr type_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
  BufferBuilder validity_;  ///< BytesForBits(length_) bytes once has_validity_
  bool has_validity_ = false;
  int64_t reserved_ = 0;  ///< element capacity promised by Reserve()
};

/// Builder of fixed-width numbers (int8..uint64, float32, float64).
template <typename T>
class NumericBuilder final : public ArrayBuilder {
 public:
  /// `type` must be the column type of T (the default).
  explicit NumericBuilder(DataTypePtr type = CTypeTraits<T>::type()) : ArrayBuilder(std::move(type)) {}

  /// Appends one valid value.
  Status Append(T value) {
    RETURN_NOT_OK(values_.Reserve(sizeof(T)));
    if (has_validity_) RETURN_NOT_OK(validity_.Reserve(1));
    UnsafeAppend(value);
    return Status::OK();
  }
  /// Appends one valid value without checking capacity; call Reserve() first.
  void UnsafeAppend(T value) {
    values_.UnsafeAppendValue(value);
    UnsafeCommitValid();
  }
  /// Appends n valid values (one memcpy).
  Status AppendValues(const T* values, int64_t n);
  /// Appends n valid slots and points *out at them; they are uninitialized and the caller must
  /// write every one of them.
  /// The pointer stays valid until the next call on this builder.
  Status AppendUninitialized(int64_t n, T** out);

  /// Appends a null (a zero value slot and a cleared validity bit).
  Status AppendNull() override { return AppendNulls(1); }
  /// Appends n nulls.
  Status AppendNulls(int64_t n) override;
  /// Ensures room for `additional` more values, so UnsafeAppend can follow.
  Status Reserve(int64_t additional) override;
  /// Returns {validity (nullptr when no nulls), values} and resets the builder.
  Result<std::shared_ptr<ArrayData>> Finish() override;
  void Truncate(int64_t length) override;

  /// Value i appended so far (0 <= i < length(); 0 for nulls).
  T GetValue(int64_t i) const { return reinterpret_cast<const T*>(values_.data())[i]; }

 private:
  BufferBuilder values_;
};

extern template class NumericBuilder<int8_t>;
extern template class NumericBuilder<int16_t>;
extern template class NumericBuilder<int32_t>;
extern template class NumericBuilder<int64_t>;
extern template class NumericBuilder<uint8_t>;
extern template class NumericBuilder<uint16_t>;
extern template class NumericBuilder<uint32_t>;
extern template class NumericBuilder<uint64_t>;
extern template class NumericBuilder<float>;
extern template class NumericBuilder<double>;

using Int8Builder = NumericBuilder<int8_t>;
using Int16Builder = NumericBuilder<int16_t>;
using Int32Builder = NumericBuilder<int32_t>;
using Int64Builder = NumericBuilder<int64_t>;
using UInt8Builder = NumericBuilder<uint8_t>;
using UInt16Builder = NumericBuilder<uint16_t>;
using UInt32Builder = NumericBuilder<uint32_t>;
using UInt64Builder = NumericBuilder<uint64_t>;
using Float32Builder = NumericBuilder<float>;
using Float64Builder = NumericBuilder<double>;

/// Builder of booleans (bit-packed values).
class BooleanBuilder final : public ArrayBuilder {
 public:
  /// A builder of boolean().
  BooleanBuilder();

  /// Appends one valid value.
  Status Append(bool value) {
    RETURN_NOT_OK(values_.Reserve(1));
    if (has_validity_) RETURN_NOT_OK(validity_.Reserve(1));
    UnsafeAppend(value);
    return Status::OK();
  }
  /// Appends one valid value without checking capacity; call Reserve() first.
  void UnsafeAppend(bool value) {
    if ((length_ & 7) == 0) values_.UnsafeAppendValue<uint8_t>(0);
    if (value) bit_util::SetBit(values_.mutable_data(), length_);
    UnsafeCommitValid();
  }

  /// Appends a null (a cleared value bit and validity bit).
  Status AppendNull() override { return AppendNulls(1); }
  /// Appends n nulls.
  Status AppendNulls(int64_t n) override;
  /// Ensures room for `additional` more values, so UnsafeAppend can follow.
  Status Reserve(int64_t additional) override;
  /// Returns {validity (nullptr when no nulls), value bits} and resets the builder.
  Result<std::shared_ptr<ArrayData>> Finish() override;
  void Truncate(int64_t length) override;

 private:
  BufferBuilder values_;  ///< BytesForBits(length_) bytes
};

/// Builder of binary or utf8 arrays. It does not check UTF-8 (ValidateFull does).
class BinaryBuilder final : public ArrayBuilder {
 public:
  /// `type` is binary() (the default) or utf8().
  explicit BinaryBuilder(DataTypePtr type = binary());

  /// Appends one valid value; an error (nothing appended) when the data would exceed
  /// kMaxInt32Offset bytes.
  Status Append(std::string_view value) {
    return Append(reinterpret_cast<const uint8_t*>(value.data()), static_cast<int64_t>(value.size()));
  }
  /// Same, from a pointer and a size.
  Status Append(const uint8_t* data, int64_t n);

  /// Appends a null (an empty slot).
  Status AppendNull() override { return AppendNulls(1); }
  /// Appends n nulls.
  Status AppendNulls(int64_t n) override;
  /// Ensures room for `additional` more offsets (see ReserveData for the bytes).
  Status Reserve(int64_t additional) override;
  /// Ensures room for `bytes` more data bytes.
  Status ReserveData(int64_t bytes);
  /// Data bytes appended so far.
  int64_t value_data_length() const { return data_.size(); }
  /// The data bytes, for writing a value in place (a file read, an image decoded straight into
  /// the column): append its bytes here, then call AppendWritten() with their count. Bytes
  /// added here and not appended as a value must be truncated away before the next append.
  BufferBuilder& value_data() { return data_; }
  /// Appends the valid value made of the last `n` bytes of value_data(), written there since
  /// the previous value; an error (the bytes dropped, nothing appended) when the data would
  /// pass kMaxInt32Offset bytes or memory runs out.
  Status AppendWritten(int64_t n);
  /// Returns {validity, offsets, data} and resets the builder.
  Result<std::shared_ptr<ArrayData>> Finish() override;
  void Truncate(int64_t length) override;

 private:
  BufferBuilder offsets_;  ///< int32 start of each element; the end offset is added by Finish
  BufferBuilder data_;
};

/// Builder of list<T>: Append() opens a list, whose elements are what is appended to
/// value_builder() before the next Append()/AppendNull()/Finish().
class ListBuilder final : public ArrayBuilder {
 public:
  /// `list_type` is a list type whose value type is `values->type()`.
  ListBuilder(DataTypePtr list_type, std::unique_ptr<ArrayBuilder> values);

  /// Opens a new valid (initially empty) list.
  Status Append();
  /// Appends a null list (with no elements; append nothing to value_builder() for it).
  Status AppendNull() override { return AppendNulls(1); }
  /// Appends n null lists.
  Status AppendNulls(int64_t n) override;
  /// Ensures room for `additional` more lists (not their elements).
  Status Reserve(int64_t additional) override;
  /// Returns {validity, offsets} with the finished child, and resets this and the child builder.
  Result<std::shared_ptr<ArrayData>> Finish() override;
  /// Also truncates the child to the elements of the lists kept (when lists are dropped).
  void Truncate(int64_t length) override;

  /// The builder of the elements (owned by this builder).
  ArrayBuilder* value_builder() const { return values_.get(); }

 private:
  Status AppendOffsets(int64_t n);
  BufferBuilder offsets_;  ///< int32 start of each element; the end offset is added by Finish
  std::unique_ptr<ArrayBuilder> values_;
};

/// Builder of struct arrays: Append() adds a valid row, then the caller appends exactly one
/// element (value or null) to every field builder.
class StructBuilder final : public ArrayBuilder {
 public:
  /// One builder per field of the struct `type`, in order.
  StructBuilder(DataTypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> field_builders);

  /// Adds a valid row; append one element to each field builder for it.
  Status Append();
  /// Adds null rows and appends as many nulls to every field builder.
  Status AppendNull() override { return AppendNulls(1); }
  /// Adds n null rows (nulls appended to every field builder too).
  Status AppendNulls(int64_t n) override;
  /// Ensures room for `additional` more rows here and in every field builder.
  Status Reserve(int64_t additional) override;
  /// Returns {validity} with the finished children and resets the builders. Fails when a field builder's length differs from length().
  Result<std::shared_ptr<ArrayData>> Finish() override;
  /// Also truncates every field builder to `length`.
  void Truncate(int64_t length) override;

  /// Builder of field i (owned by this builder).
  ArrayBuilder* field_builder(int i) const { return fields_[static_cast<size_t>(i)].get(); }
  /// Number of fields.
  int num_fields() const { return static_cast<int>(fields_.size()); }

 private:
  std::vector<std::unique_ptr<ArrayBuilder>> fields_;
};

/// Builder of the null type (no buffers).
class NullBuilder final : public ArrayBuilder {
 public:
  /// A builder of null().
  NullBuilder();
  /// Adds n elements (all null).
  Status AppendNulls(int64_t n) override;
  /// Nothing to reserve; checks the count.
  Status Reserve(int64_t additional) override;
  /// Returns the bufferless null array and resets the builder.
  Result<std::shared_ptr<ArrayData>> Finish() override;
  void Truncate(int64_t length) override;
};

/// A builder of `type`: null, bool, integers, floats, binary/utf8, dates, times, timestamps,
/// durations (built as their integer storage), and lists and structs of those; an
/// InvalidArgument for other types.
Result<std::unique_ptr<ArrayBuilder>> MakeBuilder(const DataTypePtr& type);

/// An array of `type` with no elements (any type MakeBuilder supports).
Result<std::shared_ptr<ArrayData>> MakeEmptyArray(const DataTypePtr& type);

}  // namespace recflow
