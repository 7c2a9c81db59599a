// BinaryCursor: reads Avro binary-encoded primitives from a byte span, checking every length.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "recflow/core/status.h"
#include "recflow/formats/avro/framing.h"

namespace recflow::avro {

/// A read position in Avro binary data (Avro specification, "Binary Encoding"). Every read
/// checks the bytes that are actually left; lengths and counts are checked before anything is
/// allocated for them. Errors are DataErrors that carry the position (see Error()).
class BinaryCursor {
 public:
  /// Reads `data`. `base_offset` is the input byte offset of data[0], or -1 when the bytes are
  /// decompressed and have no input offset (errors then name the position in the block).
  explicit BinaryCursor(std::span<const uint8_t> data, int64_t base_offset = -1)
      : data_(data), base_offset_(base_offset) {}

  /// Bytes consumed so far.
  int64_t position() const { return pos_; }
  /// Bytes left.
  int64_t remaining() const { return static_cast<int64_t>(data_.size()) - pos_; }

  /// A zigzag varint long: at most 10 bytes, no bits beyond 64.
  Status ReadLong(int64_t* out) {
    uint64_t value = 0;
    const int64_t start = pos_;
    for (int i = 0; i < kMaxVarintBytes; ++i) {
      if (pos_ >= static_cast<int64_t>(data_.size())) return ErrorAt(start, "truncated varint");
      const uint8_t byte = data_[static_cast<size_t>(pos_++)];
      if (i == kMaxVarintBytes - 1 && byte > 1) break;
      value |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
      if ((byte & 0x80) == 0) {
        *out = static_cast<int64_t>(value >> 1) ^ -static_cast<int64_t>(value & 1);
        return Status::OK();
      }
    }
    return ErrorAt(start, "varint longer than 10 bytes or beyond 64 bits");
  }
  /// A zigzag varint int: a long that must fit in 32 bits.
  Status ReadInt(int32_t* out);
  /// A boolean: one byte, 0 or 1.
  Status ReadBoolean(bool* out);
  /// A float: 4 bytes, little-endian IEEE 754.
  Status ReadFloat(float* out) {
    uint32_t bits = 0;
    RETURN_NOT_OK(ReadLittleEndian(&bits));
    *out = std::bit_cast<float>(bits);
    return Status::OK();
  }
  /// A double: 8 bytes, little-endian IEEE 754.
  Status ReadDouble(double* out) {
    uint64_t bits = 0;
    RETURN_NOT_OK(ReadLittleEndian(&bits));
    *out = std::bit_cast<double>(bits);
    return Status::OK();
  }
  /// `n` raw bytes (a fixed value, or the body of bytes/string after its length).
  Status ReadRaw(int64_t n, std::span<const uint8_t>* out) {
    if (n < 0 || n > remaining()) {
      return Error("needs " + std::to_string(n) + " bytes, " + std::to_string(remaining()) + " left");
    }
    *out = data_.subspan(static_cast<size_t>(pos_), static_cast<size_t>(n));
    pos_ += n;
    return Status::OK();
  }
  /// Bytes or string: a long length (0 <= length <= remaining bytes), then the bytes.
  Status ReadBytes(std::span<const uint8_t>* out);
  /// The item count of the next array or map block: 0 ends the value; a negative count is
  /// followed by the block's byte size, which is checked and ignored. The count is bounded by
  /// the bytes left divided by `min_item_size` (kMaxZeroSizeItems when items may take zero
  /// bytes), so a hostile count fails here instead of allocating.
  Status ReadBlockCount(int64_t min_item_size, int64_t* count);

  /// A DataError at the current position.
  Status Error(const std::string& message) const { return ErrorAt(pos_, message); }
  /// A DataError at `position`: with the input byte offset when known, else naming the
  /// position inside the decompressed block.
  Status ErrorAt(int64_t position, const std::string& message) const;

 private:
  template <typename T>
  Status ReadLittleEndian(T* out) {
    if (remaining() < static_cast<int64_t>(sizeof(T))) return Error("truncated " + std::to_string(sizeof(T)) + "-byte value");
    T value = 0;
    for (size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(data_[static_cast<size_t>(pos_) + i]) << (8 * i);
    pos_ += static_cast<int64_t>(sizeof(T));
    *out = value;
    return Status::OK();
  }

  std::span<const uint8_t> data_;
  int64_t base_offset_;
  int64_t pos_ = 0;
};

}  // namespace recflow::avro
