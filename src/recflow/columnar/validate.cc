// Validate/ValidateFull: every size, offset, count and utf8 value checked before it is read.
#include "recflow/columnar/validate.h"

#include <cstring>
#include <limits>
#include <string>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/schema.h"
#include "recflow/columnar/utf8.h"

namespace recflow {

namespace {

constexpr int kMaxDepth = 64;

Status Invalid(const ArrayData& data, const std::string& what) {
  return Status::DataError("invalid " + (data.type ? data.type->ToString() : std::string("untyped")) +
                           " array: " + what);
}

size_t ExpectedBuffers(TypeId id) {
  switch (id) {
    case TypeId::kNull: return 0;
    case TypeId::kStruct: return 1;
    case TypeId::kBinary: case TypeId::kUtf8: return 3;
    default: return 2;
  }
}

int64_t BufferSize(const ArrayData& data, size_t i) { return data.buffers[i] ? data.buffers[i]->size() : 0; }

int32_t LoadOffset(const ArrayData& data, int64_t slot) {
  int32_t value;
  std::memcpy(&value, data.buffers[1]->data() + slot * 4, sizeof(value));
  return value;
}

// Checks the int32 offsets of a binary or list array against `limit` (data bytes or child
// length); with `full`, every offset, else the first and the last.
Status CheckOffsets(const ArrayData& data, int64_t limit, bool full) {
  const int64_t end = data.offset + data.length;
  if (data.length == 0 && data.buffers[1] == nullptr) return Status::OK();
  if (data.buffers[1] == nullptr) return Invalid(data, "missing offsets buffer");
  if (BufferSize(data, 1) / 4 < end + 1) {
    return Invalid(data, "offsets buffer of " + std::to_string(BufferSize(data, 1)) + " bytes is too short for " +
                             std::to_string(end + 1) + " offsets");
  }
  const int32_t first = LoadOffset(data, data.offset);
  const int32_t last = LoadOffset(data, end);
  if (first < 0) return Invalid(data, "negative first offset " + std::to_string(first));
  if (last < first) return Invalid(data, "last offset " + std::to_string(last) + " before first " + std::to_string(first));
  if (last > limit) {
    return Invalid(data, "last offset " + std::to_string(last) + " beyond the " + std::to_string(limit) +
                             " values/bytes available");
  }
  if (!full) return Status::OK();
  int32_t prev = first;
  for (int64_t slot = data.offset + 1; slot <= end; ++slot) {
    const int32_t cur = LoadOffset(data, slot);
    if (cur < prev) {
      return Invalid(data, "offsets decrease at element " + std::to_string(slot - 1 - data.offset) + " (" +
                               std::to_string(prev) + " > " + std::to_string(cur) + ")");
    }
    prev = cur;
  }
  return Status::OK();
}

Status CheckUtf8(const ArrayData& data) {
  const uint8_t* validity = data.validity();
  const uint8_t* bytes = data.buffers[2] ? data.buffers[2]->data() : nullptr;
  for (int64_t i = 0; i < data.length; ++i) {
    const int64_t slot = data.offset + i;
    if (validity != nullptr && !bit_util::GetBit(validity, slot)) continue;
    const int32_t begin = LoadOffset(data, slot);
    const int32_t end = LoadOffset(data, slot + 1);
    if (end > begin && !IsValidUtf8(bytes + begin, end - begin)) {
      return Invalid(data, "element " + std::to_string(i) + " is not valid UTF-8");
    }
  }
  return Status::OK();
}

Status ValidateImpl(const ArrayData& data, bool full, int depth);

Status CheckChild(const ArrayData& data, size_t i, const DataType& expected, bool full, int depth) {
  const auto& child = data.children[i];
  if (child == nullptr) return Invalid(data, "child " + std::to_string(i) + " is missing");
  if (child->type == nullptr || !child->type->Equals(expected)) {
    return Invalid(data, "child " + std::to_string(i) + " has type " +
                             (child->type ? child->type->ToString() : std::string("none")) + ", expected " +
                             expected.ToString());
  }
  Status st = ValidateImpl(*child, full, depth + 1);
  if (!st.ok()) return Status::DataError("child " + std::to_string(i) + ": " + st.message());
  return Status::OK();
}

Status ValidateImpl(const ArrayData& data, bool full, int depth) {
  if (depth > kMaxDepth) return Status::DataError("array nesting deeper than " + std::to_string(kMaxDepth));
  if (data.type == nullptr) return Invalid(data, "no type");
  const DataType& type = *data.type;
  if (data.length < 0 || data.offset < 0) return Invalid(data, "negative length or offset");
  // Bound length + offset so that every size computed below (up to x 8 bytes) fits int64.
  if (data.length > (std::numeric_limits<int64_t>::max() / 16) - data.offset) {
    return Invalid(data, "length + offset too large");
  }
  const int64_t end = data.offset + data.length;
  if (data.null_count < 0 || data.null_count > data.length) {
    return Invalid(data, "null_count " + std::to_string(data.null_count) + " outside [0, length]");
  }
  if (data.buffers.size() != ExpectedBuffers(type.id())) {
    return Invalid(data, std::to_string(data.buffers.size()) + " buffers, expected " +
                             std::to_string(ExpectedBuffers(type.id())));
  }
  const size_t expected_children =
      type.id() == TypeId::kList || type.id() == TypeId::kStruct ? type.fields().size() : 0;
  if (data.children.size() != expected_children) {
    return Invalid(data, std::to_string(data.children.size()) + " children, expected " +
                             std::to_string(expected_children));
  }
  if (type.id() == TypeId::kNull) {
    if (data.null_count != data.length) return Invalid(data, "null_count must equal length");
    return Status::OK();
  }

  // Validity.
  if (data.buffers[0] == nullptr) {
    if (data.null_count != 0) return Invalid(data, "null_count " + std::to_string(data.null_count) + " without a validity bitmap");
  } else {
    if (BufferSize(data, 0) < bit_util::BytesForBits(end)) {
      return Invalid(data, "validity bitmap of " + std::to_string(BufferSize(data, 0)) + " bytes is too short");
    }
    if (full) {
      const int64_t nulls = data.length - bit_util::CountSetBits(data.buffers[0]->data(), data.offset, data.length);
      if (nulls != data.null_count) {
        return Invalid(data, "null_count " + std::to_string(data.null_count) + " but the bitmap has " +
                                 std::to_string(nulls) + " nulls");
      }
    }
  }

  switch (type.id()) {
    case TypeId::kList: {
      if (data.children[0] == nullptr) return Invalid(data, "child 0 is missing");
      RETURN_NOT_OK(CheckOffsets(data, data.children[0]->length, full));
      return CheckChild(data, 0, *type.value_type(), full, depth);
    }
    case TypeId::kStruct: {
      for (size_t i = 0; i < data.children.size(); ++i) {
        if (data.children[i] != nullptr && data.children[i]->length < end) {
          return Invalid(data, "child " + std::to_string(i) + " has " + std::to_string(data.children[i]->length) +
                                   " elements, expected at least " + std::to_string(end));
        }
        RETURN_NOT_OK(CheckChild(data, i, *type.fields()[i]->type(), full, depth));
      }
      return Status::OK();
    }
    case TypeId::kBinary:
    case TypeId::kUtf8: {
      RETURN_NOT_OK(CheckOffsets(data, BufferSize(data, 2), full));
      if (full && type.id() == TypeId::kUtf8) return CheckUtf8(data);
      return Status::OK();
    }
    default: {
      const int64_t needed = type.id() == TypeId::kBool ? bit_util::BytesForBits(end) : end * (type.bit_width() / 8);
      if (needed > 0 && data.buffers[1] == nullptr) return Invalid(data, "missing values buffer");
      if (BufferSize(data, 1) < needed) {
        return Invalid(data, "values buffer of " + std::to_string(BufferSize(data, 1)) + " bytes, expected at least " +
                                 std::to_string(needed));
      }
      return Status::OK();
    }
  }
}

}  // namespace

Status Validate(const ArrayData& data) { return ValidateImpl(data, false, 0); }

Status ValidateFull(const ArrayData& data) { return ValidateImpl(data, true, 0); }

}  // namespace recflow
