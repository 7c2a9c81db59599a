// Validate/ValidateFull: every size, offset, count and utf8 value checked before it is read.
#include "recflow/columnar/validate.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/schema.h"
#include "recflow/columnar/utf8.h"

namespace recflow {

namespace {

constexpr int kMaxDepth = 64;

Status Invalid(const ArrayData& data, const std::string& what) {
  return Status::DataError("invalid " + (data.type ? data.type->ToString() : std::string("untyped")) +
                           " array: " + what);
}

/// Buffers of a `type` array (the views have 2 plus any number of data buffers).
size_t ExpectedBuffers(const DataType& type) {
  switch (type.id()) {
    case TypeId::kNull: case TypeId::kRunEndEncoded: return 0;
    case TypeId::kStruct: case TypeId::kFixedSizeList: return 1;
    case TypeId::kBinary: case TypeId::kUtf8: case TypeId::kLargeBinary: case TypeId::kLargeUtf8:
    case TypeId::kListView: case TypeId::kLargeListView: return 3;
    case TypeId::kUnion: return type.params().union_mode == UnionMode::kDense ? 3 : 2;
    default: return 2;
  }
}

bool IsView(const DataType& type) { return type.id() == TypeId::kBinaryView || type.id() == TypeId::kUtf8View; }

size_t ExpectedChildren(const DataType& type) {
  switch (type.id()) {
    case TypeId::kList: case TypeId::kLargeList: case TypeId::kFixedSizeList: case TypeId::kMap:
    case TypeId::kListView: case TypeId::kLargeListView: return 1;
    case TypeId::kStruct: case TypeId::kUnion: case TypeId::kRunEndEncoded: return type.fields().size();
    default: return 0;
  }
}

int64_t BufferSize(const ArrayData& data, size_t i) { return data.buffers[i] ? data.buffers[i]->size() : 0; }

/// Offset `slot` of buffer 1 (int32 or int64 offsets).
template <typename Offset>
Offset LoadOffset(const ArrayData& data, int64_t slot) {
  Offset value;
  std::memcpy(&value, data.buffers[1]->data() + slot * static_cast<int64_t>(sizeof(Offset)), sizeof(value));
  return value;
}

// Checks the offsets of a binary or list array against `limit` (data bytes or child length);
// with `full`, every offset, else the first and the last.
template <typename Offset>
Status CheckOffsets(const ArrayData& data, int64_t limit, bool full) {
  const int64_t end = data.offset + data.length;
  if (data.length == 0 && data.buffers[1] == nullptr) return Status::OK();
  if (data.buffers[1] == nullptr) return Invalid(data, "missing offsets buffer");
  if (BufferSize(data, 1) / static_cast<int64_t>(sizeof(Offset)) < end + 1) {
    return Invalid(data, "offsets buffer of " + std::to_string(BufferSize(data, 1)) + " bytes is too short for " +
                             std::to_string(end + 1) + " offsets");
  }
  const Offset first = LoadOffset<Offset>(data, data.offset);
  const Offset last = LoadOffset<Offset>(data, end);
  if (first < 0) return Invalid(data, "negative first offset " + std::to_string(first));
  if (last < first) return Invalid(data, "last offset " + std::to_string(last) + " before first " + std::to_string(first));
  if (last > limit) {
    return Invalid(data, "last offset " + std::to_string(last) + " beyond the " + std::to_string(limit) +
                             " values/bytes available");
  }
  if (!full) return Status::OK();
  Offset prev = first;
  for (int64_t slot = data.offset + 1; slot <= end; ++slot) {
    const Offset cur = LoadOffset<Offset>(data, slot);
    if (cur < prev) {
      return Invalid(data, "offsets decrease at element " + std::to_string(slot - 1 - data.offset) + " (" +
                               std::to_string(prev) + " > " + std::to_string(cur) + ")");
    }
    prev = cur;
  }
  return Status::OK();
}

template <typename Offset>
Status CheckUtf8(const ArrayData& data) {
  const uint8_t* validity = data.validity();
  const uint8_t* bytes = data.buffers[2] ? data.buffers[2]->data() : nullptr;
  for (int64_t i = 0; i < data.length; ++i) {
    const int64_t slot = data.offset + i;
    if (validity != nullptr && !bit_util::GetBit(validity, slot)) continue;
    const Offset begin = LoadOffset<Offset>(data, slot);
    const Offset end = LoadOffset<Offset>(data, slot + 1);
    if (end > begin && !IsValidUtf8(bytes + begin, static_cast<int64_t>(end - begin))) {
      return Invalid(data, "element " + std::to_string(i) + " is not valid UTF-8");
    }
  }
  return Status::OK();
}

template <typename Offset>
Status CheckBinary(const ArrayData& data, bool utf8, bool full) {
  RETURN_NOT_OK(CheckOffsets<Offset>(data, BufferSize(data, 2), full));
  if (full && utf8) return CheckUtf8<Offset>(data);
  return Status::OK();
}

/// Buffer `i` holds `count` values of `width` bytes (it may be absent when it needs none).
Status CheckBufferHolds(const ArrayData& data, size_t i, int64_t count, int64_t width, const char* what) {
  const int64_t needed = count * width;
  if (needed > 0 && data.buffers[i] == nullptr) return Invalid(data, std::string("missing ") + what + " buffer");
  if (BufferSize(data, i) < needed) {
    return Invalid(data, std::string(what) + " buffer of " + std::to_string(BufferSize(data, i)) +
                             " bytes, expected at least " + std::to_string(needed));
  }
  return Status::OK();
}

/// The (unaligned) int32 at `bytes`.
int32_t LoadInt32(const uint8_t* bytes) {
  int32_t value;
  std::memcpy(&value, bytes, sizeof(value));
  return value;
}

// Checks the views buffer of a binary_view / utf8_view array; with `full`, every valid view:
// an inline size of at most 12 bytes, or a data buffer index, offset and size inside that
// buffer and a prefix equal to the bytes it points to (and UTF-8 for utf8_view).
Status CheckViews(const ArrayData& data, bool utf8, bool full) {
  RETURN_NOT_OK(CheckBufferHolds(data, 1, data.offset + data.length, kViewBytes, "views"));
  if (!full) return Status::OK();
  const uint8_t* validity = data.null_count > 0 ? data.validity() : nullptr;
  const auto data_buffers = static_cast<int64_t>(data.buffers.size()) - 2;
  for (int64_t i = 0; i < data.length; ++i) {
    const int64_t slot = data.offset + i;
    if (validity != nullptr && !bit_util::GetBit(validity, slot)) continue;
    const uint8_t* view = data.buffers[1]->data() + slot * kViewBytes;
    const int32_t size = LoadInt32(view);
    const std::string element = "element " + std::to_string(i);
    if (size < 0) return Invalid(data, element + " has negative size " + std::to_string(size));
    const uint8_t* bytes = view + 4;
    if (size > kInlineViewBytes) {
      const int32_t index = LoadInt32(view + 8);
      const int32_t at = LoadInt32(view + 12);
      if (index < 0 || index >= data_buffers) {
        return Invalid(data, element + " points to data buffer " + std::to_string(index) + " of " +
                                 std::to_string(data_buffers));
      }
      const int64_t available = BufferSize(data, 2 + static_cast<size_t>(index));
      if (at < 0 || int64_t{at} + size > available) {
        return Invalid(data, element + " points to bytes [" + std::to_string(at) + ", " +
                                 std::to_string(int64_t{at} + size) + ") outside data buffer " + std::to_string(index) +
                                 " of " + std::to_string(available) + " bytes");
      }
      if (std::memcmp(view + 4, data.buffers[2 + static_cast<size_t>(index)]->data() + at, 4) != 0) {
        return Invalid(data, element + " has a prefix that differs from its bytes");
      }
      bytes = data.buffers[2 + static_cast<size_t>(index)]->data() + at;
    }
    if (utf8 && !IsValidUtf8(bytes, size)) return Invalid(data, element + " is not valid UTF-8");
  }
  return Status::OK();
}

// Checks the offsets and sizes buffers of a list view; with `full`, that every element (null
// ones included, as the format requires) lies inside the child.
template <typename Offset>
Status CheckListViews(const ArrayData& data, bool full) {
  const int64_t end = data.offset + data.length;
  RETURN_NOT_OK(CheckBufferHolds(data, 1, end, sizeof(Offset), "offsets"));
  RETURN_NOT_OK(CheckBufferHolds(data, 2, end, sizeof(Offset), "sizes"));
  if (!full) return Status::OK();
  const int64_t child_length = data.children[0]->length;
  for (int64_t slot = data.offset; slot < end; ++slot) {
    Offset start, size;
    std::memcpy(&start, data.buffers[1]->data() + slot * static_cast<int64_t>(sizeof(Offset)), sizeof(start));
    std::memcpy(&size, data.buffers[2]->data() + slot * static_cast<int64_t>(sizeof(Offset)), sizeof(size));
    if (start < 0 || size < 0 || start > child_length || size > child_length - start) {
      return Invalid(data, "element " + std::to_string(slot - data.offset) + " has offset " + std::to_string(start) +
                               " and size " + std::to_string(size) + ", outside the child of " +
                               std::to_string(child_length));
    }
  }
  return Status::OK();
}

/// A fixed-width values buffer (buffer 1) holds `end` values of `type`.
Status CheckValues(const ArrayData& data, int64_t end) {
  const DataType& type = *data.type;
  const int64_t width = type.id() == TypeId::kFixedSizeBinary ? type.params().width : type.bit_width() / 8;
  if (width < 0 || (width > 0 && end > std::numeric_limits<int64_t>::max() / width)) {
    return Invalid(data, "values of " + std::to_string(width) + " bytes overflow the buffer size");
  }
  const int64_t needed = type.id() == TypeId::kBool ? bit_util::BytesForBits(end) : end * width;
  if (needed > 0 && data.buffers[1] == nullptr) return Invalid(data, "missing values buffer");
  if (BufferSize(data, 1) < needed) {
    return Invalid(data, "values buffer of " + std::to_string(BufferSize(data, 1)) + " bytes, expected at least " +
                             std::to_string(needed));
  }
  return Status::OK();
}

/// A child holds at least `needed` elements.
Status CheckChildLength(const ArrayData& data, size_t i, int64_t needed) {
  if (data.children[i] != nullptr && data.children[i]->length < needed) {
    return Invalid(data, "child " + std::to_string(i) + " has " + std::to_string(data.children[i]->length) +
                             " elements, expected at least " + std::to_string(needed));
  }
  return Status::OK();
}

Status ValidateImpl(const ArrayData& data, bool full, int depth);
Status ValidateUnion(const ArrayData& data, bool full, int depth);
Status ValidateDictionary(const ArrayData& data, bool full, int depth);
Status ValidateRunEndEncoded(const ArrayData& data, bool full, int depth);

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
  if (IsView(type) ? data.buffers.size() < ExpectedBuffers(type) : data.buffers.size() != ExpectedBuffers(type)) {
    return Invalid(data, std::to_string(data.buffers.size()) + " buffers, expected " + (IsView(type) ? "at least " : "") +
                             std::to_string(ExpectedBuffers(type)));
  }
  if (data.children.size() != ExpectedChildren(type)) {
    return Invalid(data, std::to_string(data.children.size()) + " children, expected " +
                             std::to_string(ExpectedChildren(type)));
  }
  if ((type.id() == TypeId::kDictionary) != (data.dictionary != nullptr)) {
    return Invalid(data, type.id() == TypeId::kDictionary ? "no dictionary" : "a dictionary on a non-dictionary type");
  }
  if (type.id() == TypeId::kNull) {
    if (data.null_count != data.length) return Invalid(data, "null_count must equal length");
    return Status::OK();
  }
  if (type.id() == TypeId::kUnion) return ValidateUnion(data, full, depth);
  if (type.id() == TypeId::kRunEndEncoded) return ValidateRunEndEncoded(data, full, depth);

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
    case TypeId::kList:
    case TypeId::kMap:
    case TypeId::kLargeList: {
      if (data.children[0] == nullptr) return Invalid(data, "child 0 is missing");
      if (type.id() == TypeId::kLargeList) {
        RETURN_NOT_OK(CheckOffsets<int64_t>(data, data.children[0]->length, full));
      } else {
        RETURN_NOT_OK(CheckOffsets<int32_t>(data, data.children[0]->length, full));
      }
      return CheckChild(data, 0, *type.value_type(), full, depth);
    }
    case TypeId::kListView:
    case TypeId::kLargeListView: {
      if (data.children[0] == nullptr) return Invalid(data, "child 0 is missing");
      if (type.id() == TypeId::kLargeListView) {
        RETURN_NOT_OK(CheckListViews<int64_t>(data, full));
      } else {
        RETURN_NOT_OK(CheckListViews<int32_t>(data, full));
      }
      return CheckChild(data, 0, *type.value_type(), full, depth);
    }
    case TypeId::kBinaryView:
    case TypeId::kUtf8View: return CheckViews(data, type.id() == TypeId::kUtf8View, full);
    case TypeId::kFixedSizeList: {
      const int64_t size = type.params().width;
      if (size < 0 || (size > 0 && end > std::numeric_limits<int64_t>::max() / size)) {
        return Invalid(data, "list size " + std::to_string(size) + " out of range");
      }
      RETURN_NOT_OK(CheckChildLength(data, 0, end * size));
      return CheckChild(data, 0, *type.value_type(), full, depth);
    }
    case TypeId::kStruct: {
      for (size_t i = 0; i < data.children.size(); ++i) {
        RETURN_NOT_OK(CheckChildLength(data, i, end));
        RETURN_NOT_OK(CheckChild(data, i, *type.fields()[i]->type(), full, depth));
      }
      return Status::OK();
    }
    case TypeId::kBinary:
    case TypeId::kUtf8: return CheckBinary<int32_t>(data, type.id() == TypeId::kUtf8, full);
    case TypeId::kLargeBinary:
    case TypeId::kLargeUtf8: return CheckBinary<int64_t>(data, type.id() == TypeId::kLargeUtf8, full);
    case TypeId::kDictionary: return ValidateDictionary(data, full, depth);
    default: return CheckValues(data, end);
  }
}

Status ValidateUnion(const ArrayData& data, bool full, int depth) {
  const DataType& type = *data.type;
  const TypeParams& params = type.params();
  const int64_t end = data.offset + data.length;
  if (data.buffers[0] != nullptr || data.null_count != 0) return Invalid(data, "a union has no validity and no nulls");
  if (params.type_codes.size() != type.fields().size()) return Invalid(data, "type codes do not match the fields");
  if (BufferSize(data, 1) < end) return Invalid(data, "type codes buffer too short");
  const bool dense = params.union_mode == UnionMode::kDense;
  if (dense && BufferSize(data, 2) / 4 < end) return Invalid(data, "offsets buffer too short");
  for (size_t i = 0; i < data.children.size(); ++i) {
    if (!dense) RETURN_NOT_OK(CheckChildLength(data, i, end));
    RETURN_NOT_OK(CheckChild(data, i, *type.fields()[i]->type(), full, depth));
  }
  if (!full) return Status::OK();
  // child index of each type code (-1: not a code of this union)
  int child_of[256];
  std::fill(std::begin(child_of), std::end(child_of), -1);
  for (size_t i = 0; i < params.type_codes.size(); ++i) child_of[static_cast<uint8_t>(params.type_codes[i])] = static_cast<int>(i);
  // An empty union may have no type codes buffer at all (end == 0: the loop reads nothing).
  const auto* codes = data.buffers[1] ? reinterpret_cast<const int8_t*>(data.buffers[1]->data()) : nullptr;
  for (int64_t slot = data.offset; slot < end; ++slot) {
    const int child = child_of[static_cast<uint8_t>(codes[slot])];
    if (child < 0) {
      return Invalid(data, "element " + std::to_string(slot - data.offset) + " has type code " +
                               std::to_string(codes[slot]) + ", not one of the union's");
    }
    if (!dense) continue;
    int32_t at;
    std::memcpy(&at, data.buffers[2]->data() + slot * 4, sizeof(at));
    if (at < 0 || at >= data.children[static_cast<size_t>(child)]->length) {
      return Invalid(data, "element " + std::to_string(slot - data.offset) + " has offset " + std::to_string(at) +
                               " outside child " + std::to_string(child));
    }
  }
  return Status::OK();
}

/// The largest value a run end of `type` (int16, int32 or int64) can hold; 0 for other types.
int64_t MaxRunEnd(const DataType& type) {
  switch (type.id()) {
    case TypeId::kInt16: return std::numeric_limits<int16_t>::max();
    case TypeId::kInt32: return std::numeric_limits<int32_t>::max();
    case TypeId::kInt64: return std::numeric_limits<int64_t>::max();
    default: return 0;
  }
}

Status ValidateRunEndEncoded(const ArrayData& data, bool full, int depth) {
  const DataType& type = *data.type;
  if (data.null_count != 0) return Invalid(data, "a run-end encoded array has no nulls of its own");
  const DataType& run_end_type = *type.fields()[0]->type();
  const int64_t max_run_end = MaxRunEnd(run_end_type);
  if (max_run_end == 0) return Invalid(data, "run ends of type " + run_end_type.ToString() + ", not int16, int32 or int64");
  const int64_t end = data.offset + data.length;
  if (end > max_run_end) return Invalid(data, "offset + length " + std::to_string(end) + " exceeds the run end type");
  RETURN_NOT_OK(CheckChild(data, 0, run_end_type, full, depth));
  RETURN_NOT_OK(CheckChild(data, 1, *type.fields()[1]->type(), full, depth));
  const ArrayData& run_ends = *data.children[0];
  const int64_t runs = run_ends.length;
  if (run_ends.null_count != 0) return Invalid(data, "run ends have nulls");
  if (data.children[1]->length < runs) {
    return Invalid(data, std::to_string(runs) + " run ends but " + std::to_string(data.children[1]->length) + " values");
  }
  if (data.length == 0) return Status::OK();
  if (runs == 0 || RunEnd(data, runs - 1) < end) {
    return Invalid(data, "the runs end before offset + length " + std::to_string(end));
  }
  if (!full) return Status::OK();
  int64_t previous = 0;
  for (int64_t run = 0; run < runs; ++run) {
    const int64_t run_end = RunEnd(data, run);
    if (run_end <= previous) {
      return Invalid(data, "run end " + std::to_string(run) + " (" + std::to_string(run_end) +
                               ") is not above the one before (" + std::to_string(previous) + ")");
    }
    previous = run_end;
  }
  return Status::OK();
}

/// The largest index of a dictionary's indices among valid elements, or -1; a negative index
/// is an error.
template <typename Index>
Status CheckIndices(const ArrayData& data, int64_t dictionary_length) {
  const uint8_t* validity = data.validity();
  for (int64_t slot = data.offset; slot < data.offset + data.length; ++slot) {
    if (validity != nullptr && !bit_util::GetBit(validity, slot)) continue;
    Index index;
    std::memcpy(&index, data.buffers[1]->data() + slot * static_cast<int64_t>(sizeof(Index)), sizeof(index));
    bool in_range;
    if constexpr (std::is_signed_v<Index>) {
      in_range = index >= 0 && static_cast<int64_t>(index) < dictionary_length;
    } else {
      in_range = static_cast<uint64_t>(index) < static_cast<uint64_t>(dictionary_length);
    }
    if (!in_range) {
      return Invalid(data, "element " + std::to_string(slot - data.offset) + " has index " + std::to_string(index) +
                               " outside the dictionary of " + std::to_string(dictionary_length));
    }
  }
  return Status::OK();
}

Status ValidateDictionary(const ArrayData& data, bool full, int depth) {
  const DataType& type = *data.type;
  const DataType& index_type = *type.params().index_type;
  if (!index_type.is_integer()) return Invalid(data, "dictionary indices must be integers");
  if (data.dictionary->type == nullptr || !data.dictionary->type->Equals(*type.value_type())) {
    return Invalid(data, "dictionary values are not of type " + type.value_type()->ToString());
  }
  const int64_t end = data.offset + data.length;
  const int64_t needed = end * (index_type.bit_width() / 8);
  if (needed > 0 && (data.buffers[1] == nullptr || BufferSize(data, 1) < needed)) {
    return Invalid(data, "indices buffer too short");
  }
  Status st = ValidateImpl(*data.dictionary, full, depth + 1);
  if (!st.ok()) return Status::DataError("dictionary: " + st.message());
  if (!full) return Status::OK();
  const int64_t n = data.dictionary->length;
  switch (index_type.id()) {
    case TypeId::kInt8: return CheckIndices<int8_t>(data, n);
    case TypeId::kInt16: return CheckIndices<int16_t>(data, n);
    case TypeId::kInt32: return CheckIndices<int32_t>(data, n);
    case TypeId::kInt64: return CheckIndices<int64_t>(data, n);
    case TypeId::kUInt8: return CheckIndices<uint8_t>(data, n);
    case TypeId::kUInt16: return CheckIndices<uint16_t>(data, n);
    case TypeId::kUInt32: return CheckIndices<uint32_t>(data, n);
    default: return CheckIndices<uint64_t>(data, n);
  }
}

}  // namespace

Status Validate(const ArrayData& data) { return ValidateImpl(data, false, 0); }

Status ValidateFull(const ArrayData& data) { return ValidateImpl(data, true, 0); }

}  // namespace recflow
