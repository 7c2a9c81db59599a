// OneHot: a zeroed float32 child with one 1 per valid, in-range row.
#include "recflow/ops/columns/one_hot.h"

#include "recflow/columnar/element_access.h"
#include "recflow/ops/columns/column_util_internal.h"

namespace recflow::ops {

DataTypePtr OneHotType(int32_t depth) { return fixed_size_list(Field::Make("item", float32()), depth); }

Result<std::shared_ptr<ArrayData>> OneHot(const ArrayData& ids, int32_t depth) {
  if (depth < 1) return Status::InvalidArgument("one_hot: depth must be at least 1, not " + std::to_string(depth));
  if (!ids.type->is_integer()) return Status::TypeError("one_hot: column is " + ids.type->ToString() + ", not integer ids");
  const int64_t slots = ids.length * depth;
  ASSIGN_OR_RETURN(auto values, Buffer::Allocate(slots * static_cast<int64_t>(sizeof(float))));
  auto* out = reinterpret_cast<float*>(internal::MutableBytes(values));
  for (int64_t i = 0; i < ids.length; ++i) {
    if (!internal::IsValidAt(ids, i)) continue;
    const int64_t id = IntegerValue(ids, i);
    if (id >= 0 && id < depth) out[i * depth + id] = 1.0f;  // uint64 ids above int64's range read negative
  }
  auto child = ArrayData::Make(float32(), slots, {nullptr, std::move(values)}, 0);
  ASSIGN_OR_RETURN(auto validity, internal::CopyValidity(ids));
  return ArrayData::Make(OneHotType(depth), ids.length, {std::move(validity)},
                         ids.null_count, 0, {std::move(child)});
}

}  // namespace recflow::ops
