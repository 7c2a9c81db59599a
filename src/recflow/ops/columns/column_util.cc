// Column lookup with errors that list the available columns.
#include "recflow/ops/columns/column_util_internal.h"

#include <algorithm>
#include <cstring>


namespace recflow::ops::internal {

std::string ColumnNames(const Schema& schema) {
  std::string out;
  for (int i = 0; i < schema.num_fields(); ++i) {
    if (i > 0) out += ", ";
    out += schema.field(i)->name();
  }
  return out;
}

Result<int> FindColumn(const Schema& schema, std::string_view name, std::string_view op) {
  const int index = schema.GetFieldIndex(name);
  if (index < 0) {
    return Status::InvalidArgument(std::string(op) + ": no column '" + std::string(name) + "' (columns: " +
                                   ColumnNames(schema) + ")");
  }
  return index;
}

Result<std::shared_ptr<Buffer>> CopyValidity(const ArrayData& data) {
  if (data.null_count == 0) return std::shared_ptr<Buffer>();
  ASSIGN_OR_RETURN(auto bitmap, Buffer::Allocate(bit_util::BytesForBits(data.length)));
  const uint8_t* validity = data.validity();
  if (validity == nullptr) return bitmap;  // the null type: every row null (the buffer is zeroed)
  bit_util::GenerateBits(MutableBytes(bitmap), 0, data.length,
                         [validity, i = data.offset]() mutable { return bit_util::GetBit(validity, i++); });
  return bitmap;
}

std::shared_ptr<ArrayData> ListValuesSlice(const ArrayData& data) {
  const int32_t* offsets = data.GetValues<int32_t>(1);
  const int64_t start = data.length > 0 ? offsets[0] : 0;
  const int64_t end = data.length > 0 ? offsets[data.length] : 0;
  return data.children[0]->Slice(start, end - start);
}

Result<std::shared_ptr<ArrayData>> RebuildList(const ArrayData& data, std::shared_ptr<ArrayData> values) {
  const int32_t* offsets = data.GetValues<int32_t>(1);
  ASSIGN_OR_RETURN(auto new_offsets, Buffer::Allocate((data.length + 1) * static_cast<int64_t>(sizeof(int32_t))));
  auto* out = reinterpret_cast<int32_t*>(MutableBytes(new_offsets));
  const int32_t base = data.length > 0 ? offsets[0] : 0;
  for (int64_t i = 0; i <= data.length && data.length > 0; ++i) out[i] = offsets[i] - base;
  ASSIGN_OR_RETURN(auto validity, CopyValidity(data));
  const FieldPtr& item = data.type->fields()[0];
  DataTypePtr type = list(item->WithType(values->type));
  return ArrayData::Make(std::move(type), data.length, {std::move(validity), std::move(new_offsets)}, data.null_count, 0,
                         {std::move(values)});
}

int64_t ListRowOf(const ArrayData& data, int64_t k) {
  const int32_t* offsets = data.GetValues<int32_t>(1);
  const int64_t target = offsets[0] + k;
  // The last row whose start is <= target (empty rows share starts; the one holding it is last).
  const int32_t* it = std::upper_bound(offsets, offsets + data.length, target);
  return (it - offsets) - 1;
}

}  // namespace recflow::ops::internal
