// ArrayEquals: element-wise logical comparison through offsets, slices and nested children.
#include "recflow/columnar/equals.h"

#include <cmath>
#include <cstring>
#include <string_view>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/schema.h"

namespace recflow {

namespace {

bool IsValidAt(const ArrayData& data, int64_t i) {
  if (data.type->id() == TypeId::kNull) return false;
  const uint8_t* validity = data.validity();
  return validity == nullptr || bit_util::GetBit(validity, data.offset + i);
}

template <typename F>
bool FloatEquals(const ArrayData& a, int64_t ai, const ArrayData& b, int64_t bi) {
  const F x = a.GetValues<F>(1)[ai];
  const F y = b.GetValues<F>(1)[bi];
  return std::memcmp(&x, &y, sizeof(F)) == 0 || (std::isnan(x) && std::isnan(y));
}

std::string_view BinaryView(const ArrayData& data, int64_t i) {
  const int32_t* offsets = data.GetValues<int32_t>(1);
  const char* bytes = reinterpret_cast<const char*>(data.buffers[2] ? data.buffers[2]->data() : nullptr);
  return {bytes + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i])};
}

bool RangeEquals(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start, int64_t length);

// Values of valid elements a[ai] and b[bi] (logical indexes) of the same type.
bool ValueEquals(const ArrayData& a, int64_t ai, const ArrayData& b, int64_t bi) {
  const DataType& type = *a.type;
  switch (type.id()) {
    case TypeId::kNull: return true;
    case TypeId::kBool:
      return bit_util::GetBit(a.buffers[1]->data(), a.offset + ai) == bit_util::GetBit(b.buffers[1]->data(), b.offset + bi);
    case TypeId::kFloat32: return FloatEquals<float>(a, ai, b, bi);
    case TypeId::kFloat64: return FloatEquals<double>(a, ai, b, bi);
    case TypeId::kBinary:
    case TypeId::kUtf8: return BinaryView(a, ai) == BinaryView(b, bi);
    case TypeId::kList: {
      const int32_t* ao = a.GetValues<int32_t>(1);
      const int32_t* bo = b.GetValues<int32_t>(1);
      const int64_t n = ao[ai + 1] - ao[ai];
      return n == bo[bi + 1] - bo[bi] && RangeEquals(*a.children[0], ao[ai], *b.children[0], bo[bi], n);
    }
    case TypeId::kStruct:
      for (size_t f = 0; f < a.children.size(); ++f) {
        if (!RangeEquals(*a.children[f], a.offset + ai, *b.children[f], b.offset + bi, 1)) return false;
      }
      return true;
    default: {
      const size_t width = static_cast<size_t>(type.bit_width() / 8);
      return std::memcmp(a.buffers[1]->data() + (a.offset + ai) * width, b.buffers[1]->data() + (b.offset + bi) * width,
                         width) == 0;
    }
  }
}

bool RangeEquals(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start, int64_t length) {
  for (int64_t i = 0; i < length; ++i) {
    const bool a_valid = IsValidAt(a, a_start + i);
    if (a_valid != IsValidAt(b, b_start + i)) return false;
    if (a_valid && !ValueEquals(a, a_start + i, b, b_start + i)) return false;
  }
  return true;
}

}  // namespace

bool ArrayEquals(const ArrayData& a, const ArrayData& b) {
  if (&a == &b) return true;
  if (a.length != b.length || a.null_count != b.null_count || !a.type->Equals(*b.type)) return false;
  return RangeEquals(a, 0, b, 0, a.length);
}

}  // namespace recflow
