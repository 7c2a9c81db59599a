// ArrayData construction, null counting and O(1) slicing.
#include "recflow/columnar/array_data.h"

#include <algorithm>

#include "recflow/columnar/bit_util.h"

namespace recflow {

std::shared_ptr<ArrayData> ArrayData::Make(DataTypePtr type, int64_t length,
                                           std::vector<std::shared_ptr<Buffer>> buffers, int64_t null_count,
                                           int64_t offset, std::vector<std::shared_ptr<ArrayData>> children) {
  auto data = std::make_shared<ArrayData>();
  data->type = std::move(type);
  data->length = length;
  data->null_count = null_count;
  data->offset = offset;
  data->buffers = std::move(buffers);
  data->children = std::move(children);
  return data;
}

int64_t ComputeNullCount(const ArrayData& data, int64_t offset, int64_t length) {
  if (data.type->id() == TypeId::kNull) return length;
  const uint8_t* validity = data.validity();
  if (validity == nullptr) return 0;
  return length - bit_util::CountSetBits(validity, offset, length);
}

std::shared_ptr<ArrayData> ArrayData::Slice(int64_t slice_offset, int64_t slice_length) const {
  slice_offset = std::clamp<int64_t>(slice_offset, 0, length);
  slice_length = std::clamp<int64_t>(slice_length, 0, length - slice_offset);
  auto out = std::make_shared<ArrayData>(*this);
  out->offset = offset + slice_offset;
  out->length = slice_length;
  if (null_count == 0) {
    out->null_count = 0;
  } else if (null_count == length) {
    out->null_count = slice_length;
  } else {
    out->null_count = ComputeNullCount(*this, out->offset, slice_length);
  }
  return out;
}

}  // namespace recflow
