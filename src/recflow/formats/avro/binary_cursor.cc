// BinaryCursor: range checks of ints, booleans, lengths and array/map block counts.
#include "recflow/formats/avro/binary_cursor_internal.h"

#include <limits>

namespace recflow::avro {

Status BinaryCursor::ReadInt(int32_t* out) {
  const int64_t start = pos_;
  int64_t value = 0;
  RETURN_NOT_OK(ReadLong(&value));
  if (value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<int32_t>::max()) {
    return ErrorAt(start, "int value " + std::to_string(value) + " does not fit in 32 bits");
  }
  *out = static_cast<int32_t>(value);
  return Status::OK();
}

Status BinaryCursor::ReadBoolean(bool* out) {
  if (remaining() < 1) return Error("truncated boolean");
  const uint8_t byte = data_[static_cast<size_t>(pos_)];
  if (byte > 1) return Error("boolean byte " + std::to_string(byte) + " is neither 0 nor 1");
  ++pos_;
  *out = byte == 1;
  return Status::OK();
}

Status BinaryCursor::ReadBytes(std::span<const uint8_t>* out) {
  const int64_t start = pos_;
  int64_t length = 0;
  RETURN_NOT_OK(ReadLong(&length));
  if (length < 0) return ErrorAt(start, "negative length " + std::to_string(length));
  if (length > remaining()) {
    return ErrorAt(start, "length " + std::to_string(length) + " exceeds the " + std::to_string(remaining()) +
                              " bytes left");
  }
  return ReadRaw(length, out);
}

Status BinaryCursor::ReadBlockCount(int64_t min_item_size, int64_t* count) {
  const int64_t start = pos_;
  RETURN_NOT_OK(ReadLong(count));
  if (*count < 0) {
    if (*count == std::numeric_limits<int64_t>::min()) return ErrorAt(start, "bad block item count");
    *count = -*count;
    int64_t byte_size = 0;
    RETURN_NOT_OK(ReadLong(&byte_size));
    if (byte_size < 0 || byte_size > remaining()) {
      return ErrorAt(start, "block byte size " + std::to_string(byte_size) + " does not fit in the " +
                                std::to_string(remaining()) + " bytes left");
    }
  }
  const int64_t limit = min_item_size > 0 ? remaining() / min_item_size : kMaxZeroSizeItems;
  if (*count > limit) {
    return ErrorAt(start, "block item count " + std::to_string(*count) + " exceeds what the " +
                              std::to_string(remaining()) + " bytes left can hold");
  }
  return Status::OK();
}

Status BinaryCursor::ErrorAt(int64_t position, const std::string& message) const {
  if (base_offset_ >= 0) return Status::DataError("avro: " + message).WithOffset(base_offset_ + position);
  return Status::DataError("avro: " + message + " (at byte " + std::to_string(position) + " of the decompressed block)");
}

}  // namespace recflow::avro
