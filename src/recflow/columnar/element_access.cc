// Element access through each layout's offsets, type codes and indices.
#include "recflow/columnar/element_access.h"

#include <cstring>

namespace recflow {

namespace {

template <typename T>
T Load(const ArrayData& data, int buffer, int64_t slot) {
  T value;
  std::memcpy(&value, data.buffers[static_cast<size_t>(buffer)]->data() + slot * static_cast<int64_t>(sizeof(T)),
              sizeof(T));
  return value;
}

/// Value slot of buffer 1 of `data`, read as integer type `type` and widened to int64.
int64_t LoadInteger(const DataType& type, const ArrayData& data, int64_t slot) {
  const bool is_unsigned = type.id() >= TypeId::kUInt8 && type.id() <= TypeId::kUInt64;
  switch (type.bit_width()) {
    // Each branch widens on its own: a conditional of int32 and uint32 would be uint32.
    case 8: return is_unsigned ? int64_t{Load<uint8_t>(data, 1, slot)} : int64_t{Load<int8_t>(data, 1, slot)};
    case 16: return is_unsigned ? int64_t{Load<uint16_t>(data, 1, slot)} : int64_t{Load<int16_t>(data, 1, slot)};
    case 32: return is_unsigned ? int64_t{Load<uint32_t>(data, 1, slot)} : int64_t{Load<int32_t>(data, 1, slot)};
    default: return Load<int64_t>(data, 1, slot);
  }
}

}  // namespace

std::string_view BinaryValue(const ArrayData& data, int64_t i) {
  const int64_t slot = data.offset + i;
  const char* bytes = nullptr;
  int64_t begin = 0, end = 0;
  switch (data.type->id()) {
    case TypeId::kFixedSizeBinary: {
      const int64_t width = data.type->params().width;
      bytes = reinterpret_cast<const char*>(data.buffers[1] ? data.buffers[1]->data() : nullptr);
      begin = slot * width;
      end = begin + width;
      break;
    }
    case TypeId::kLargeBinary:
    case TypeId::kLargeUtf8:
      bytes = reinterpret_cast<const char*>(data.buffers[2] ? data.buffers[2]->data() : nullptr);
      begin = Load<int64_t>(data, 1, slot);
      end = Load<int64_t>(data, 1, slot + 1);
      break;
    case TypeId::kBinaryView:
    case TypeId::kUtf8View: {
      const auto* view = reinterpret_cast<const char*>(data.buffers[1]->data()) + slot * kViewBytes;
      int32_t size = 0;
      std::memcpy(&size, view, sizeof(size));
      if (size <= kInlineViewBytes) {
        bytes = view + 4;
        end = size;
        break;
      }
      int32_t index = 0;
      int32_t offset = 0;
      std::memcpy(&index, view + 8, sizeof(index));
      std::memcpy(&offset, view + 12, sizeof(offset));
      begin = offset;
      bytes = reinterpret_cast<const char*>(data.buffers[2 + static_cast<size_t>(index)]->data());
      end = begin + size;
      break;
    }
    default:
      bytes = reinterpret_cast<const char*>(data.buffers[2] ? data.buffers[2]->data() : nullptr);
      begin = Load<int32_t>(data, 1, slot);
      end = Load<int32_t>(data, 1, slot + 1);
      break;
  }
  if (end == begin) return {};
  return {bytes + begin, static_cast<size_t>(end - begin)};
}

ChildRange ListRange(const ArrayData& data, int64_t i) {
  const int64_t slot = data.offset + i;
  switch (data.type->id()) {
    case TypeId::kFixedSizeList: {
      const int64_t size = data.type->params().width;
      return {slot * size, size};
    }
    case TypeId::kLargeList: {
      const auto begin = Load<int64_t>(data, 1, slot);
      return {begin, Load<int64_t>(data, 1, slot + 1) - begin};
    }
    case TypeId::kListView: return {Load<int32_t>(data, 1, slot), Load<int32_t>(data, 2, slot)};
    case TypeId::kLargeListView: return {Load<int64_t>(data, 1, slot), Load<int64_t>(data, 2, slot)};
    default: {
      const auto begin = Load<int32_t>(data, 1, slot);
      return {begin, Load<int32_t>(data, 1, slot + 1) - begin};
    }
  }
}

UnionSlot UnionChildAt(const ArrayData& data, int64_t i) {
  const int64_t slot = data.offset + i;
  const auto code = Load<int8_t>(data, 1, slot);
  const std::vector<int8_t>& codes = data.type->params().type_codes;
  UnionSlot out;
  for (size_t c = 0; c < codes.size(); ++c) {
    if (codes[c] == code) out.child = static_cast<int>(c);
  }
  out.index = data.type->params().union_mode == UnionMode::kDense ? Load<int32_t>(data, 2, slot) : slot;
  return out;
}

int64_t IntegerValue(const ArrayData& data, int64_t i) { return LoadInteger(*data.type, data, data.offset + i); }

int64_t DictionaryIndex(const ArrayData& data, int64_t i) {
  return LoadInteger(*data.type->params().index_type, data, data.offset + i);
}

int64_t RunEnd(const ArrayData& data, int64_t run) {
  const ArrayData& run_ends = *data.children[0];
  return LoadInteger(*run_ends.type, run_ends, run_ends.offset + run);
}

int64_t RunIndex(const ArrayData& data, int64_t i) {
  const int64_t slot = data.offset + i;
  int64_t low = 0;
  int64_t high = data.children[0]->length - 1;  // validation guarantees RunEnd(high) > slot
  while (low < high) {
    const int64_t mid = low + (high - low) / 2;
    if (RunEnd(data, mid) > slot) {
      high = mid;
    } else {
      low = mid + 1;
    }
  }
  return low;
}

}  // namespace recflow
