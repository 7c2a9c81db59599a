// Concatenate: validity bits, fixed-width values, rebased offsets, children and dictionaries of equal-type arrays.
#include "recflow/columnar/concatenate.h"

#include <cstring>
#include <limits>
#include <string>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/builder.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/equals.h"
#include "recflow/columnar/run_ends.h"

namespace recflow {
namespace {

using ArrayVector = std::vector<std::shared_ptr<ArrayData>>;

int64_t TotalLength(const ArrayVector& arrays) {
  int64_t n = 0;
  for (const auto& a : arrays) n += a->length;
  return n;
}

/// Bits [offset, offset + length) of buffer `index` of each array, one after another; an array
/// without that buffer contributes `absent` bits.
Result<std::shared_ptr<Buffer>> ConcatBitmaps(const ArrayVector& arrays, int64_t total, size_t index, bool absent) {
  BufferBuilder out;
  RETURN_NOT_OK(out.Resize(bit_util::BytesForBits(total)));
  int64_t pos = 0;
  for (const auto& a : arrays) {
    const uint8_t* bits = a->buffers.size() > index && a->buffers[index] ? a->buffers[index]->data() : nullptr;
    if (bits == nullptr) {
      bit_util::SetBitsTo(out.mutable_data(), pos, a->length, absent);
    } else {
      int64_t i = a->offset;
      bit_util::GenerateBits(out.mutable_data(), pos, a->length, [&] { return bit_util::GetBit(bits, i++); });
    }
    pos += a->length;
  }
  return out.Finish();
}

/// The validity bitmap of the concatenation, or nullptr when no input has nulls.
Result<std::shared_ptr<Buffer>> ConcatValidity(const ArrayVector& arrays, int64_t total) {
  bool any_nulls = false;
  for (const auto& a : arrays) any_nulls |= a->null_count > 0;
  if (!any_nulls) return std::shared_ptr<Buffer>();
  return ConcatBitmaps(arrays, total, 0, /*absent=*/true);
}

/// Values [offset, offset + length) of `width` bytes each from buffer `index` of each array.
Result<std::shared_ptr<Buffer>> ConcatFixed(const ArrayVector& arrays, size_t index, int64_t width) {
  BufferBuilder out;
  for (const auto& a : arrays) {
    if (a->length == 0) continue;
    RETURN_NOT_OK(out.Append(a->buffers[index]->data() + a->offset * width, a->length * width));
  }
  return out.Finish();
}

/// Offsets of each array rebased to follow the previous array's range, and each array's
/// [first, last) range of the data / child it points into.
template <typename Offset>
Result<std::shared_ptr<Buffer>> ConcatOffsets(const ArrayVector& arrays, std::vector<std::pair<int64_t, int64_t>>& ranges) {
  BufferBuilder out;
  int64_t base = 0;
  RETURN_NOT_OK(out.AppendValue(Offset{0}));
  for (const auto& a : arrays) {
    if (a->length == 0) {
      ranges.emplace_back(0, 0);
      continue;
    }
    const Offset* offsets = a->GetValues<Offset>(1);
    const int64_t first = offsets[0];
    const int64_t last = offsets[a->length];
    ranges.emplace_back(first, last);
    for (int64_t i = 1; i <= a->length; ++i) {
      const int64_t value = base + (static_cast<int64_t>(offsets[i]) - first);
      if (value > std::numeric_limits<Offset>::max()) {
        return Status::DataError("concatenate: offsets overflow " + std::to_string(sizeof(Offset) * 8) + " bits");
      }
      RETURN_NOT_OK(out.AppendValue(static_cast<Offset>(value)));
    }
    base += last - first;
  }
  return out.Finish();
}

/// Concatenates child `i` of each array, each sliced by `ranges` (offset, length pairs).
Result<std::shared_ptr<ArrayData>> ConcatChild(const ArrayVector& arrays, size_t i,
                                               const std::vector<std::pair<int64_t, int64_t>>& ranges) {
  ArrayVector slices;
  for (size_t k = 0; k < arrays.size(); ++k) {
    slices.push_back(arrays[k]->children[i]->Slice(ranges[k].first, ranges[k].second));
  }
  return Concatenate(slices);
}

/// The dictionary the concatenation uses: the last one, when every other is its prefix.
Result<std::shared_ptr<ArrayData>> CommonDictionary(const ArrayVector& arrays) {
  const std::shared_ptr<ArrayData>& last = arrays.back()->dictionary;
  for (const auto& a : arrays) {
    if (a->dictionary == last) continue;
    if (a->dictionary->length > last->length || !ArrayEquals(*a->dictionary, *last->Slice(0, a->dictionary->length))) {
      return Status::TypeError("concatenate: dictionary arrays with different dictionaries");
    }
  }
  return last;
}

Status ConcatDenseUnion(const ArrayVector& arrays, ArrayData& out) {
  const size_t n = out.type->fields().size();
  std::vector<int64_t> base(n, 0);
  BufferBuilder offsets;
  const auto& codes = out.type->params().type_codes;
  for (const auto& a : arrays) {
    const int8_t* ids = a->GetValues<int8_t>(1);
    const int32_t* offs = a->GetValues<int32_t>(2);
    for (int64_t i = 0; i < a->length; ++i) {
      size_t child = 0;
      while (child < n && codes[child] != ids[i]) ++child;
      const int64_t value = child < n ? base[child] + offs[i] : offs[i];
      if (value > std::numeric_limits<int32_t>::max()) return Status::DataError("concatenate: union offsets overflow");
      RETURN_NOT_OK(offsets.AppendValue(static_cast<int32_t>(value)));
    }
    for (size_t c = 0; c < n; ++c) base[c] += a->children[c]->length;
  }
  out.buffers.push_back(offsets.Finish());
  for (size_t c = 0; c < n; ++c) {
    ArrayVector whole;
    for (const auto& a : arrays) whole.push_back(a->children[c]);
    ASSIGN_OR_RETURN(auto child, Concatenate(whole));
    out.children.push_back(std::move(child));
  }
  return Status::OK();
}

template <typename Offset>
Status ConcatBinary(const ArrayVector& arrays, ArrayData& out) {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  ASSIGN_OR_RETURN(auto offsets, ConcatOffsets<Offset>(arrays, ranges));
  BufferBuilder data;
  for (size_t k = 0; k < arrays.size(); ++k) {
    if (ranges[k].second > ranges[k].first) {
      RETURN_NOT_OK(data.Append(arrays[k]->buffers[2]->data() + ranges[k].first, ranges[k].second - ranges[k].first));
    }
  }
  out.buffers.push_back(std::move(offsets));
  out.buffers.push_back(data.Finish());
  return Status::OK();
}

template <typename Offset>
Status ConcatList(const ArrayVector& arrays, ArrayData& out) {
  std::vector<std::pair<int64_t, int64_t>> ranges;
  ASSIGN_OR_RETURN(auto offsets, ConcatOffsets<Offset>(arrays, ranges));
  for (auto& [first, last] : ranges) last -= first;  // (offset, length)
  out.buffers.push_back(std::move(offsets));
  ASSIGN_OR_RETURN(auto child, ConcatChild(arrays, 0, ranges));
  out.children.push_back(std::move(child));
  return Status::OK();
}

/// Views of each array one after the other, the data buffers of each appended in turn (a
/// view's buffer index shifted past those of the arrays before it).
Status ConcatViews(const ArrayVector& arrays, ArrayData& out) {
  BufferBuilder views;
  std::vector<std::shared_ptr<Buffer>> data_buffers;
  for (const auto& a : arrays) {
    const auto base = static_cast<int64_t>(data_buffers.size());
    if (base + static_cast<int64_t>(a->buffers.size()) > std::numeric_limits<int32_t>::max()) {
      return Status::DataError("concatenate: more view data buffers than an int32 index reaches");
    }
    for (int64_t i = 0; i < a->length; ++i) {
      uint8_t view[kViewBytes];
      std::memcpy(view, a->buffers[1]->data() + (a->offset + i) * kViewBytes, kViewBytes);
      int32_t size;
      std::memcpy(&size, view, sizeof(size));
      if (size > kInlineViewBytes) {
        // Unsigned: a null view's index is unchecked garbage, and shifting it must not overflow.
        uint32_t index;
        std::memcpy(&index, view + 8, sizeof(index));
        index += static_cast<uint32_t>(base);
        std::memcpy(view + 8, &index, sizeof(index));
      }
      RETURN_NOT_OK(views.Append(view, kViewBytes));
    }
    data_buffers.insert(data_buffers.end(), a->buffers.begin() + 2, a->buffers.end());
  }
  out.buffers.push_back(views.Finish());
  out.buffers.insert(out.buffers.end(), data_buffers.begin(), data_buffers.end());
  return Status::OK();
}

/// List views over the whole children of each array, joined: offsets shifted by the child
/// elements before them, sizes as they are.
template <typename Offset>
Status ConcatListViews(const ArrayVector& arrays, ArrayData& out) {
  BufferBuilder offsets, sizes;
  ArrayVector children;
  int64_t base = 0;
  for (const auto& a : arrays) {
    for (int64_t i = 0; i < a->length; ++i) {
      const int64_t value = base + a->GetValues<Offset>(1)[i];
      if (value > std::numeric_limits<Offset>::max()) {
        return Status::DataError("concatenate: list view offsets overflow " + std::to_string(sizeof(Offset) * 8) + " bits");
      }
      RETURN_NOT_OK(offsets.AppendValue(static_cast<Offset>(value)));
      RETURN_NOT_OK(sizes.AppendValue(a->GetValues<Offset>(2)[i]));
    }
    children.push_back(a->children[0]);
    base += a->children[0]->length;
  }
  out.buffers.push_back(offsets.Finish());
  out.buffers.push_back(sizes.Finish());
  ASSIGN_OR_RETURN(auto child, Concatenate(children));
  out.children.push_back(std::move(child));
  return Status::OK();
}

/// The runs each array uses, their ends shifted by the elements before them, and their values.
Status ConcatRuns(const ArrayVector& arrays, ArrayData& out) {
  std::vector<int64_t> ends;
  ArrayVector values;
  int64_t base = 0;
  for (const auto& a : arrays) {
    int64_t first_run = 0;
    const std::vector<int64_t> visible = VisibleRunEnds(*a, &first_run);
    for (const int64_t end : visible) ends.push_back(base + end);
    values.push_back(a->children[1]->Slice(first_run, static_cast<int64_t>(visible.size())));
    base += a->length;
  }
  ASSIGN_OR_RETURN(auto run_ends, MakeRunEnds(out.type->fields()[0]->type(), ends));
  ASSIGN_OR_RETURN(auto joined, Concatenate(values));
  out.children = {std::move(run_ends), std::move(joined)};
  return Status::OK();
}

/// Fills the buffers after validity, the children and the dictionary of `out`.
Status ConcatBody(const ArrayVector& arrays, ArrayData& out) {
  const DataType& type = *out.type;
  std::vector<std::pair<int64_t, int64_t>> same;  // each array's own element range
  for (const auto& a : arrays) same.emplace_back(a->offset, a->length);
  switch (type.id()) {
    case TypeId::kNull: return Status::OK();
    case TypeId::kBool: {
      ASSIGN_OR_RETURN(auto bits, ConcatBitmaps(arrays, out.length, 1, /*absent=*/false));
      out.buffers.push_back(std::move(bits));
      return Status::OK();
    }
    case TypeId::kBinary:
    case TypeId::kUtf8: return ConcatBinary<int32_t>(arrays, out);
    case TypeId::kLargeBinary:
    case TypeId::kLargeUtf8: return ConcatBinary<int64_t>(arrays, out);
    case TypeId::kList:
    case TypeId::kMap: return ConcatList<int32_t>(arrays, out);
    case TypeId::kLargeList: return ConcatList<int64_t>(arrays, out);
    case TypeId::kBinaryView:
    case TypeId::kUtf8View: return ConcatViews(arrays, out);
    case TypeId::kListView: return ConcatListViews<int32_t>(arrays, out);
    case TypeId::kLargeListView: return ConcatListViews<int64_t>(arrays, out);
    case TypeId::kRunEndEncoded: return ConcatRuns(arrays, out);
    case TypeId::kFixedSizeList: {
      const int64_t size = type.params().width;
      std::vector<std::pair<int64_t, int64_t>> ranges;
      for (const auto& a : arrays) ranges.emplace_back(a->offset * size, a->length * size);
      ASSIGN_OR_RETURN(auto child, ConcatChild(arrays, 0, ranges));
      out.children.push_back(std::move(child));
      return Status::OK();
    }
    case TypeId::kStruct:
      for (size_t i = 0; i < type.fields().size(); ++i) {
        ASSIGN_OR_RETURN(auto child, ConcatChild(arrays, i, same));
        out.children.push_back(std::move(child));
      }
      return Status::OK();
    case TypeId::kUnion: {
      ASSIGN_OR_RETURN(auto ids, ConcatFixed(arrays, 1, 1));
      out.buffers.push_back(std::move(ids));
      if (type.params().union_mode == UnionMode::kDense) return ConcatDenseUnion(arrays, out);
      for (size_t i = 0; i < type.fields().size(); ++i) {
        ASSIGN_OR_RETURN(auto child, ConcatChild(arrays, i, same));
        out.children.push_back(std::move(child));
      }
      return Status::OK();
    }
    case TypeId::kDictionary: {
      ASSIGN_OR_RETURN(out.dictionary, CommonDictionary(arrays));
      ASSIGN_OR_RETURN(auto indices, ConcatFixed(arrays, 1, type.params().index_type->bit_width() / 8));
      out.buffers.push_back(std::move(indices));
      return Status::OK();
    }
    default: {  // fixed-width values
      ASSIGN_OR_RETURN(auto values, ConcatFixed(arrays, 1, type.bit_width() / 8));
      out.buffers.push_back(std::move(values));
      return Status::OK();
    }
  }
}

}  // namespace

Result<std::shared_ptr<ArrayData>> Concatenate(const ArrayVector& arrays) {
  if (arrays.empty()) return Status::InvalidArgument("concatenate: no arrays");
  const DataTypePtr& type = arrays[0]->type;
  for (const auto& a : arrays) {
    if (!a->type->Equals(*type)) {
      return Status::TypeError("concatenate: " + a->type->ToString() + " and " + type->ToString());
    }
  }
  auto out = std::make_shared<ArrayData>();
  out->type = type;
  out->length = TotalLength(arrays);
  if (type->id() == TypeId::kNull) {
    out->null_count = out->length;
    return out;
  }
  for (const auto& a : arrays) out->null_count += a->null_count;
  if (type->id() == TypeId::kUnion) {
    out->buffers.push_back(nullptr);
  } else if (type->id() != TypeId::kRunEndEncoded) {  // which has no buffers at all
    ASSIGN_OR_RETURN(auto validity, ConcatValidity(arrays, out->length));
    out->buffers.push_back(std::move(validity));
  }
  RETURN_NOT_OK(ConcatBody(arrays, *out));
  return out;
}

Result<std::shared_ptr<RecordBatch>> ConcatenateBatches(const SchemaPtr& schema,
                                                        const std::vector<std::shared_ptr<RecordBatch>>& batches) {
  if (batches.size() == 1) return batches[0];
  std::vector<std::shared_ptr<ArrayData>> columns;
  int64_t rows = 0;
  for (const auto& batch : batches) rows += batch->num_rows();
  for (int c = 0; c < schema->num_fields(); ++c) {
    std::vector<std::shared_ptr<ArrayData>> pieces;
    for (const auto& batch : batches) pieces.push_back(batch->column_data(c));
    std::shared_ptr<ArrayData> column;
    if (pieces.empty()) {
      ASSIGN_OR_RETURN(column, MakeEmptyArray(schema->field(c)->type()));
    } else {
      ASSIGN_OR_RETURN(column, Concatenate(pieces));
    }
    columns.push_back(std::move(column));
  }
  return RecordBatch::Make(schema, rows, std::move(columns));
}

}  // namespace recflow
