// ArrayEquals: element-wise logical comparison through offsets, slices and nested children.
#include "recflow/columnar/equals.h"

#include <cmath>
#include <cstring>
#include <string_view>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/schema.h"

namespace recflow {

namespace {

template <typename F>
bool FloatEquals(const ArrayData& a, int64_t ai, const ArrayData& b, int64_t bi) {
  const F x = a.GetValues<F>(1)[ai];
  const F y = b.GetValues<F>(1)[bi];
  return std::memcmp(&x, &y, sizeof(F)) == 0 || (std::isnan(x) && std::isnan(y));
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
    case TypeId::kUtf8:
    case TypeId::kLargeBinary:
    case TypeId::kLargeUtf8:
    case TypeId::kFixedSizeBinary:
    case TypeId::kBinaryView:
    case TypeId::kUtf8View: return BinaryValue(a, ai) == BinaryValue(b, bi);
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList:
    case TypeId::kMap:
    case TypeId::kListView:
    case TypeId::kLargeListView: {
      const ChildRange x = ListRange(a, ai);
      const ChildRange y = ListRange(b, bi);
      return x.length == y.length && RangeEquals(*a.children[0], x.start, *b.children[0], y.start, x.length);
    }
    case TypeId::kUnion: {
      const UnionSlot x = UnionChildAt(a, ai);
      const UnionSlot y = UnionChildAt(b, bi);
      return x.child == y.child && RangeEquals(*a.children[static_cast<size_t>(x.child)], x.index,
                                               *b.children[static_cast<size_t>(y.child)], y.index, 1);
    }
    case TypeId::kDictionary:
      return RangeEquals(*a.dictionary, DictionaryIndex(a, ai), *b.dictionary, DictionaryIndex(b, bi), 1);
    case TypeId::kRunEndEncoded:  // equal values, whatever the runs
      return RangeEquals(*a.children[1], RunIndex(a, ai), *b.children[1], RunIndex(b, bi), 1);
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
