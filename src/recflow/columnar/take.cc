// Take for every layout: validity and fixed-width values gathered, offsets rebuilt, children recursed.
#include "recflow/columnar/take.h"

#include <cstring>
#include <vector>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/run_ends.h"

namespace recflow {

namespace {

/// The bits at `offset` + each index of `bits`, packed; `*ones` counts the 1 bits.
Result<std::shared_ptr<Buffer>> TakeBits(const uint8_t* bits, int64_t offset, std::span<const int64_t> indices,
                                         int64_t* ones) {
  const auto n = static_cast<int64_t>(indices.size());
  ASSIGN_OR_RETURN(auto out, Buffer::Allocate(bit_util::BytesForBits(n)));
  const int64_t* index = indices.data();
  *ones = bit_util::GenerateBits(const_cast<uint8_t*>(out->data()), 0, n,
                                 [&] { return bit_util::GetBit(bits, offset + *index++); });
  return out;
}

/// The validity bitmap of the taken elements and its null count (nullptr when none is null).
Result<std::shared_ptr<Buffer>> TakeValidity(const ArrayData& data, std::span<const int64_t> indices,
                                             int64_t* null_count) {
  *null_count = 0;
  const uint8_t* validity = data.validity();
  if (validity == nullptr || data.null_count == 0) return std::shared_ptr<Buffer>();
  int64_t valid = 0;
  ASSIGN_OR_RETURN(auto bits, TakeBits(validity, data.offset, indices, &valid));
  *null_count = static_cast<int64_t>(indices.size()) - valid;
  return *null_count == 0 ? std::shared_ptr<Buffer>() : bits;
}

/// Fixed-width values (`width` bytes each; bits when width is 0) of the taken elements.
Result<std::shared_ptr<Buffer>> TakeFixed(const ArrayData& data, int buffer, int64_t width,
                                          std::span<const int64_t> indices) {
  const uint8_t* values = data.buffers[static_cast<size_t>(buffer)] ? data.buffers[static_cast<size_t>(buffer)]->data()
                                                                   : nullptr;
  const auto n = static_cast<int64_t>(indices.size());
  if (width == 0) {
    int64_t ones = 0;
    return TakeBits(values, data.offset, indices, &ones);
  }
  ASSIGN_OR_RETURN(auto bytes, Buffer::Allocate(n * width));
  auto* out = const_cast<uint8_t*>(bytes->data());
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(out + i * width, values + (data.offset + indices[static_cast<size_t>(i)]) * width, static_cast<size_t>(width));
  }
  return bytes;
}

/// Offsets of the taken elements' ranges, and the child (or byte) positions they cover in order.
template <typename Offset>
Result<std::shared_ptr<Buffer>> TakeRanges(const ArrayData& data, std::span<const int64_t> indices,
                                           std::vector<int64_t>* positions) {
  std::vector<Offset> offsets(indices.size() + 1, 0);
  for (size_t i = 0; i < indices.size(); ++i) {
    const ChildRange range = ListRange(data, indices[i]);
    for (int64_t k = 0; k < range.length; ++k) positions->push_back(range.start + k);
    offsets[i + 1] = static_cast<Offset>(offsets[i] + range.length);
  }
  return Buffer::CopyOf({reinterpret_cast<const uint8_t*>(offsets.data()), offsets.size() * sizeof(Offset)});
}

/// Binary data bytes of the taken elements, with their new offsets.
template <typename Offset>
Status TakeBinary(const ArrayData& data, std::span<const int64_t> indices, std::shared_ptr<Buffer>* offsets_out,
                  std::shared_ptr<Buffer>* bytes_out) {
  std::vector<Offset> offsets(indices.size() + 1, 0);
  std::string bytes;
  for (size_t i = 0; i < indices.size(); ++i) {
    const std::string_view value = BinaryValue(data, indices[i]);
    bytes.append(value);
    offsets[i + 1] = static_cast<Offset>(bytes.size());
  }
  ASSIGN_OR_RETURN(*offsets_out,
                   Buffer::CopyOf({reinterpret_cast<const uint8_t*>(offsets.data()), offsets.size() * sizeof(Offset)}));
  *bytes_out = Buffer::FromString(std::move(bytes));
  return Status::OK();
}

/// The taken elements of a run_end_encoded array: consecutive elements of one run share a run.
Result<std::shared_ptr<ArrayData>> TakeRuns(const ArrayData& data, std::span<const int64_t> indices) {
  std::vector<int64_t> runs;  // the run of the input each output run takes its value from
  std::vector<int64_t> ends;
  for (size_t i = 0; i < indices.size(); ++i) {
    const int64_t run = RunIndex(data, indices[i]);
    if (runs.empty() || runs.back() != run) {
      runs.push_back(run);
      ends.push_back(0);
    }
    ends.back() = static_cast<int64_t>(i) + 1;
  }
  ASSIGN_OR_RETURN(auto run_ends, MakeRunEnds(data.children[0]->type, ends));
  ASSIGN_OR_RETURN(auto values, Take(*data.children[1], runs));
  return ArrayData::Make(data.type, static_cast<int64_t>(indices.size()), {}, 0, 0,
                         {std::move(run_ends), std::move(values)});
}

}  // namespace

Result<std::shared_ptr<ArrayData>> Take(const ArrayData& data, std::span<const int64_t> indices) {
  for (int64_t index : indices) {
    if (index < 0 || index >= data.length) {
      return Status::InvalidArgument("take index " + std::to_string(index) + " outside an array of " +
                                     std::to_string(data.length));
    }
  }
  const DataType& type = *data.type;
  const auto n = static_cast<int64_t>(indices.size());
  auto out = std::make_shared<ArrayData>();
  out->type = data.type;
  out->length = n;
  if (type.id() == TypeId::kNull) {
    out->null_count = n;
    return out;
  }
  if (type.id() == TypeId::kUnion) {
    out->buffers.push_back(nullptr);
    ASSIGN_OR_RETURN(auto codes, TakeFixed(data, 1, 1, indices));
    out->buffers.push_back(std::move(codes));
    if (type.params().union_mode == UnionMode::kDense) {
      ASSIGN_OR_RETURN(auto offsets, TakeFixed(data, 2, 4, indices));
      out->buffers.push_back(std::move(offsets));
      out->children = data.children;  // the offsets still point into the whole children
    } else {
      std::vector<int64_t> slots(indices.begin(), indices.end());
      for (int64_t& slot : slots) slot += data.offset;  // sparse children align with the union's slots
      for (const auto& child : data.children) {
        ASSIGN_OR_RETURN(auto taken, Take(*child, slots));
        out->children.push_back(std::move(taken));
      }
    }
    return out;
  }
  if (type.id() == TypeId::kRunEndEncoded) return TakeRuns(data, indices);
  ASSIGN_OR_RETURN(auto validity, TakeValidity(data, indices, &out->null_count));
  out->buffers.push_back(std::move(validity));
  switch (type.id()) {
    case TypeId::kBool: {
      ASSIGN_OR_RETURN(auto bits, TakeFixed(data, 1, 0, indices));
      out->buffers.push_back(std::move(bits));
      return out;
    }
    case TypeId::kBinary:
    case TypeId::kUtf8:
    case TypeId::kLargeBinary:
    case TypeId::kLargeUtf8: {
      std::shared_ptr<Buffer> offsets, bytes;
      if (type.id() == TypeId::kBinary || type.id() == TypeId::kUtf8) {
        RETURN_NOT_OK(TakeBinary<int32_t>(data, indices, &offsets, &bytes));
      } else {
        RETURN_NOT_OK(TakeBinary<int64_t>(data, indices, &offsets, &bytes));
      }
      out->buffers.push_back(std::move(offsets));
      out->buffers.push_back(std::move(bytes));
      return out;
    }
    case TypeId::kList:
    case TypeId::kMap:
    case TypeId::kLargeList:
    case TypeId::kFixedSizeList: {
      std::vector<int64_t> positions;
      if (type.id() == TypeId::kLargeList) {
        ASSIGN_OR_RETURN(auto offsets, TakeRanges<int64_t>(data, indices, &positions));
        out->buffers.push_back(std::move(offsets));
      } else if (type.id() == TypeId::kFixedSizeList) {
        for (int64_t index : indices) {
          const ChildRange range = ListRange(data, index);
          for (int64_t k = 0; k < range.length; ++k) positions.push_back(range.start + k);
        }
      } else {
        ASSIGN_OR_RETURN(auto offsets, TakeRanges<int32_t>(data, indices, &positions));
        out->buffers.push_back(std::move(offsets));
      }
      ASSIGN_OR_RETURN(auto child, Take(*data.children[0], positions));
      out->children.push_back(std::move(child));
      return out;
    }
    case TypeId::kBinaryView:
    case TypeId::kUtf8View: {  // the views still point into the same data buffers
      ASSIGN_OR_RETURN(auto views, TakeFixed(data, 1, kViewBytes, indices));
      out->buffers.push_back(std::move(views));
      out->buffers.insert(out->buffers.end(), data.buffers.begin() + 2, data.buffers.end());
      return out;
    }
    case TypeId::kListView:
    case TypeId::kLargeListView: {  // the offsets and sizes still point into the whole child
      const int64_t width = type.id() == TypeId::kListView ? 4 : 8;
      for (int buffer = 1; buffer <= 2; ++buffer) {
        ASSIGN_OR_RETURN(auto values, TakeFixed(data, buffer, width, indices));
        out->buffers.push_back(std::move(values));
      }
      out->children = data.children;
      return out;
    }
    case TypeId::kStruct: {
      std::vector<int64_t> slots(indices.begin(), indices.end());
      for (int64_t& slot : slots) slot += data.offset;
      for (const auto& child : data.children) {
        ASSIGN_OR_RETURN(auto taken, Take(*child, slots));
        out->children.push_back(std::move(taken));
      }
      return out;
    }
    default: {  // fixed width, dictionary indices
      const int64_t width = type.id() == TypeId::kDictionary ? type.params().index_type->bit_width() / 8
                            : type.id() == TypeId::kFixedSizeBinary ? type.params().width
                                                                     : type.bit_width() / 8;
      ASSIGN_OR_RETURN(auto values, TakeFixed(data, 1, width, indices));
      out->buffers.push_back(std::move(values));
      out->dictionary = data.dictionary;
      return out;
    }
  }
}

Result<std::shared_ptr<RecordBatch>> TakeRows(const RecordBatch& batch, std::span<const int64_t> indices) {
  std::vector<std::shared_ptr<ArrayData>> columns;
  for (int c = 0; c < batch.num_columns(); ++c) {
    ASSIGN_OR_RETURN(auto column, Take(*batch.column_data(c), indices));
    columns.push_back(std::move(column));
  }
  return RecordBatch::Make(batch.schema(), static_cast<int64_t>(indices.size()), std::move(columns));
}

}  // namespace recflow
