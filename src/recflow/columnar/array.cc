// Typed array views: cache the buffer pointers of an ArrayData.
#include "recflow/columnar/array.h"

namespace recflow {

Array::Array(std::shared_ptr<ArrayData> data)
    : data_(std::move(data)),
      null_bitmap_(data_->null_count > 0 ? data_->validity() : nullptr),
      all_null_(data_->type->id() == TypeId::kNull) {}

BooleanArray::BooleanArray(std::shared_ptr<ArrayData> data)
    : Array(std::move(data)), values_(data_->buffers[1] ? data_->buffers[1]->data() : nullptr) {}

BinaryArray::BinaryArray(std::shared_ptr<ArrayData> data)
    : Array(std::move(data)),
      offsets_(data_->GetValues<int32_t>(1)),
      value_data_(data_->buffers[2] ? reinterpret_cast<const char*>(data_->buffers[2]->data()) : nullptr) {}

ListArray::ListArray(std::shared_ptr<ArrayData> data)
    : Array(std::move(data)), offsets_(data_->GetValues<int32_t>(1)) {}

StructArray::StructArray(std::shared_ptr<ArrayData> data) : Array(std::move(data)) {}

std::shared_ptr<ArrayData> StructArray::field(int i) const {
  const auto& child = data_->children[static_cast<size_t>(i)];
  if (data_->offset == 0 && child->length == data_->length) return child;
  return child->Slice(data_->offset, data_->length);
}

}  // namespace recflow
