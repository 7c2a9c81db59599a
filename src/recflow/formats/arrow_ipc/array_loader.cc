// ArrayLoader: field nodes + body buffers → ArrayData for every type (dictionary indices, V4 and V5 unions, null).
#include "recflow/formats/arrow_ipc/array_loader_internal.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/schema.h"

namespace recflow::arrow_ipc {
namespace {

/// The shape of the values buffer of a fixed-width type.
ValueShape FixedShape(const DataType& type) {
  switch (type.id()) {
    case recflow::TypeId::kInterval:
      switch (type.params().interval) {
        case recflow::IntervalUnit::kYearMonth: return ValueShape::Word(4);
        case recflow::IntervalUnit::kDayTime: return ValueShape::Parts({4, 4, 0}, 2);
        case recflow::IntervalUnit::kMonthDayNano: return ValueShape::Parts({4, 4, 8}, 3);
      }
      break;
    case recflow::TypeId::kFixedSizeBinary:
    case recflow::TypeId::kBool: return ValueShape::Bytes();
    default: break;
  }
  const int width = type.bit_width() / 8;
  return width <= 1 ? ValueShape::Bytes() : ValueShape::Word(width);
}

/// The offset `index` of an offsets buffer of `width`-byte entries, or -1 when it is not there.
int64_t OffsetAt(const std::shared_ptr<Buffer>& offsets, int64_t index, int width) {
  if (offsets == nullptr || SaturatingBytes(index + 1, width) > offsets->size()) return -1;
  if (width == 4) {
    int32_t v = 0;
    std::memcpy(&v, offsets->data() + index * 4, 4);
    return v;
  }
  int64_t v = 0;
  std::memcpy(&v, offsets->data() + index * 8, 8);
  return v;
}

}  // namespace

bool ArrayLoader::AllConsumed() const {
  return next_node_ == static_cast<int64_t>(batch_.nodes.size()) &&
         body_.position() == static_cast<int64_t>(batch_.buffers.size());
}

Result<FieldNodeDesc> ArrayLoader::NextNode() {
  if (next_node_ >= static_cast<int64_t>(batch_.nodes.size())) {
    return message_.Error("the batch has fewer field nodes than its fields need", message_.offset);
  }
  return batch_.nodes[static_cast<size_t>(next_node_++)];
}

Status ArrayLoader::LoadBuffer(ArrayData& out, const ValueShape& shape, int64_t max_size) {
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> buffer, body_.Next(shape, max_size));
  out.buffers.push_back(std::move(buffer));
  return Status::OK();
}

Status ArrayLoader::LoadValidity(ArrayData& out) {
  ASSIGN_OR_RETURN(std::shared_ptr<Buffer> validity,
                   body_.Next(ValueShape::Bytes(), bit_util::BytesForBits(out.length)));
  // Without nulls the bitmap is not needed (writers may leave it empty).
  out.buffers.push_back(out.null_count == 0 ? nullptr : std::move(validity));
  return Status::OK();
}

Status ArrayLoader::LoadBinary(ArrayData& out, int offset_width) {
  RETURN_NOT_OK(LoadValidity(out));
  RETURN_NOT_OK(LoadBuffer(out, ValueShape::Word(offset_width), SaturatingBytes(out.length + 1, offset_width)));
  // The data buffer can hold at most what the last offset reaches.
  const int64_t end = OffsetAt(out.buffers[1], out.length, offset_width);
  return LoadBuffer(out, ValueShape::Bytes(), end < 0 ? 0 : end);
}

Status ArrayLoader::LoadViews(ArrayData& out) {
  RETURN_NOT_OK(LoadValidity(out));
  RETURN_NOT_OK(LoadBuffer(out, ValueShape::Views(), SaturatingBytes(out.length, kViewBytes)));
  const size_t index = static_cast<size_t>(next_variadic_count_++);
  if (index >= batch_.variadic_buffer_counts.size()) {
    return message_.Error("the batch has fewer variadic buffer counts than its view arrays", message_.offset);
  }
  // A data buffer can hold at most what its views reach (a cap on decompression).
  const int64_t count = batch_.variadic_buffer_counts[index];
  std::vector<int64_t> reach(static_cast<size_t>(count), 0);
  const std::shared_ptr<Buffer>& views = out.buffers[1];
  for (int64_t i = 0; views != nullptr && i < out.length && (i + 1) * kViewBytes <= views->size(); ++i) {
    int32_t view[4];
    std::memcpy(view, views->data() + i * kViewBytes, sizeof(view));
    if (view[0] > kInlineViewBytes && view[2] >= 0 && view[2] < count && view[3] >= 0) {
      int64_t& most = reach[static_cast<size_t>(view[2])];
      most = std::max(most, int64_t{view[3]} + view[0]);
    }
  }
  for (const int64_t most : reach) RETURN_NOT_OK(LoadBuffer(out, ValueShape::Bytes(), most));
  return Status::OK();
}

Status ArrayLoader::LoadList(const FieldDesc& field, ArrayData& out, int offset_width) {
  RETURN_NOT_OK(LoadValidity(out));
  RETURN_NOT_OK(LoadBuffer(out, ValueShape::Word(offset_width), SaturatingBytes(out.length + 1, offset_width)));
  return LoadChildren(field, out);
}

Status ArrayLoader::LoadListView(const FieldDesc& field, ArrayData& out, int offset_width) {
  RETURN_NOT_OK(LoadValidity(out));
  RETURN_NOT_OK(LoadBuffer(out, ValueShape::Word(offset_width), SaturatingBytes(out.length, offset_width)));
  RETURN_NOT_OK(LoadBuffer(out, ValueShape::Word(offset_width), SaturatingBytes(out.length, offset_width)));
  return LoadChildren(field, out);
}

Status ArrayLoader::LoadRunEndEncoded(const FieldDesc& field, ArrayData& out) {
  if (out.null_count != 0) {
    return message_.Error("run-end encoded field '" + field.name + "' has a null count of its own (" +
                              std::to_string(out.null_count) + ")",
                          message_.offset);
  }
  return LoadChildren(field, out);
}

Status ArrayLoader::LoadUnion(const FieldDesc& field, ArrayData& out) {
  if (message_.version < MetadataVersion::kV5) {
    // Before V5 a union has a validity buffer; recflow (like Arrow >= 1.0) keeps nulls in the
    // children only, so a union with top-level nulls cannot be represented.
    ASSIGN_OR_RETURN(std::shared_ptr<Buffer> ignored, body_.Next(ValueShape::Bytes(), bit_util::BytesForBits(out.length)));
    if (out.null_count != 0) {
      return message_.Error("a pre-V5 union with top-level nulls is not supported", message_.offset);
    }
  }
  out.null_count = 0;
  out.buffers.push_back(nullptr);
  RETURN_NOT_OK(LoadBuffer(out, ValueShape::Bytes(), out.length));
  if (out.type->params().union_mode == recflow::UnionMode::kDense) {
    RETURN_NOT_OK(LoadBuffer(out, ValueShape::Word(4), SaturatingBytes(out.length, 4)));
  }
  return LoadChildren(field, out);
}

Status ArrayLoader::LoadChildren(const FieldDesc& field, ArrayData& out) {
  const auto& child_fields = out.type->fields();
  if (child_fields.size() != field.children.size()) {
    return message_.Error("field '" + field.name + "' has children the schema does not describe", message_.offset);
  }
  for (size_t i = 0; i < child_fields.size(); ++i) {
    ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> child, Load(field.children[i], child_fields[i]->type()));
    out.children.push_back(std::move(child));
  }
  return Status::OK();
}

Result<std::shared_ptr<ArrayData>> ArrayLoader::Load(const FieldDesc& field, const DataTypePtr& type) {
  ASSIGN_OR_RETURN(const FieldNodeDesc node, NextNode());
  auto out = std::make_shared<ArrayData>();
  out->type = type;
  out->length = node.length;
  out->null_count = node.null_count;
  const DataType& t = *type;
  switch (t.id()) {
    case recflow::TypeId::kNull:
      out->null_count = out->length;  // no buffers; every slot is null
      break;
    case recflow::TypeId::kDictionary: {
      const DataType& index = *t.params().index_type;
      RETURN_NOT_OK(LoadValidity(*out));
      RETURN_NOT_OK(LoadBuffer(*out, FixedShape(index), SaturatingBytes(out->length, index.bit_width() / 8)));
      out->dictionary = field.dictionary ? memo_.Find(field.dictionary->id) : nullptr;
      if (out->dictionary == nullptr) {
        return message_.Error("field '" + field.name + "' uses dictionary id " +
                                  (field.dictionary ? std::to_string(field.dictionary->id) : std::string("?")) +
                                  " before any dictionary batch gave it values",
                              message_.offset);
      }
      break;
    }
    case recflow::TypeId::kBinary:
    case recflow::TypeId::kUtf8: RETURN_NOT_OK(LoadBinary(*out, 4)); break;
    case recflow::TypeId::kLargeBinary:
    case recflow::TypeId::kLargeUtf8: RETURN_NOT_OK(LoadBinary(*out, 8)); break;
    case recflow::TypeId::kList:
    case recflow::TypeId::kMap: RETURN_NOT_OK(LoadList(field, *out, 4)); break;
    case recflow::TypeId::kLargeList: RETURN_NOT_OK(LoadList(field, *out, 8)); break;
    case recflow::TypeId::kListView: RETURN_NOT_OK(LoadListView(field, *out, 4)); break;
    case recflow::TypeId::kLargeListView: RETURN_NOT_OK(LoadListView(field, *out, 8)); break;
    case recflow::TypeId::kBinaryView:
    case recflow::TypeId::kUtf8View: RETURN_NOT_OK(LoadViews(*out)); break;
    case recflow::TypeId::kRunEndEncoded: RETURN_NOT_OK(LoadRunEndEncoded(field, *out)); break;
    case recflow::TypeId::kFixedSizeList:
    case recflow::TypeId::kStruct:
      RETURN_NOT_OK(LoadValidity(*out));
      RETURN_NOT_OK(LoadChildren(field, *out));
      break;
    case recflow::TypeId::kUnion: RETURN_NOT_OK(LoadUnion(field, *out)); break;
    case recflow::TypeId::kBool:
      RETURN_NOT_OK(LoadValidity(*out));
      RETURN_NOT_OK(LoadBuffer(*out, ValueShape::Bytes(), bit_util::BytesForBits(out->length)));
      break;
    default:  // fixed-width values
      RETURN_NOT_OK(LoadValidity(*out));
      RETURN_NOT_OK(LoadBuffer(*out, FixedShape(t), SaturatingBytes(out->length, t.bit_width() / 8)));
      break;
  }
  return out;
}

}  // namespace recflow::arrow_ipc
