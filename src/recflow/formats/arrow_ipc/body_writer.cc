// BodyWriter: each layout's buffers normalized to offset 0, compressed per buffer when asked.
#include "recflow/formats/arrow_ipc/body_writer_internal.h"

#include <lz4frame.h>
#include <zstd.h>

#include <cstring>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/run_ends.h"

namespace recflow::arrow_ipc {

namespace {

constexpr char kPadding[8] = {};

}  // namespace

Status BodyWriter::AppendBuffer(const uint8_t* data, int64_t size) {
  if (size > 0 && codec_ != BodyCodec::kNone) {
    // int64 uncompressed length, then the compressed bytes (or -1 and the bytes as they are
    // when compression does not make them smaller).
    std::string packed(sizeof(int64_t), '\0');
    if (codec_ == BodyCodec::kLz4Frame) {
      LZ4F_preferences_t prefs;
      std::memset(&prefs, 0, sizeof(prefs));
      prefs.compressionLevel = level_;
      packed.resize(sizeof(int64_t) + LZ4F_compressFrameBound(static_cast<size_t>(size), &prefs));
      const size_t n = LZ4F_compressFrame(packed.data() + sizeof(int64_t), packed.size() - sizeof(int64_t), data,
                                          static_cast<size_t>(size), &prefs);
      if (LZ4F_isError(n)) return Status::Internal(std::string("lz4: ") + LZ4F_getErrorName(n));
      packed.resize(sizeof(int64_t) + n);
    } else {
      packed.resize(sizeof(int64_t) + ZSTD_compressBound(static_cast<size_t>(size)));
      const size_t n = ZSTD_compress(packed.data() + sizeof(int64_t), packed.size() - sizeof(int64_t), data,
                                     static_cast<size_t>(size), level_);
      if (ZSTD_isError(n)) return Status::Internal(std::string("zstd: ") + ZSTD_getErrorName(n));
      packed.resize(sizeof(int64_t) + n);
    }
    int64_t prefix = size;
    if (static_cast<int64_t>(packed.size()) >= size + static_cast<int64_t>(sizeof(int64_t))) {
      packed.resize(sizeof(int64_t));
      packed.append(reinterpret_cast<const char*>(data), static_cast<size_t>(size));
      prefix = -1;
    }
    std::memcpy(packed.data(), &prefix, sizeof(prefix));
    return AppendOwned(std::move(packed));
  }
  buffers_.emplace_back(body_length_, size);
  if (size > 0) pieces_.emplace_back(reinterpret_cast<const char*>(data), static_cast<size_t>(size));
  body_length_ += size;
  const int64_t padding = (8 - body_length_ % 8) % 8;
  if (padding > 0) pieces_.emplace_back(kPadding, static_cast<size_t>(padding));
  body_length_ += padding;
  return Status::OK();
}

Status BodyWriter::AppendOwned(std::string bytes) {
  owned_.push_back(std::move(bytes));
  const std::string& kept = owned_.back();
  const BodyCodec codec = codec_;
  codec_ = BodyCodec::kNone;  // already in its final form
  const Status st = AppendBuffer(reinterpret_cast<const uint8_t*>(kept.data()), static_cast<int64_t>(kept.size()));
  codec_ = codec;
  return st;
}

Status BodyWriter::AppendBits(const uint8_t* bits, int64_t offset, int64_t length) {
  const int64_t bytes = bit_util::BytesForBits(length);
  if (offset % 8 == 0) return AppendBuffer(bits + offset / 8, bytes);
  std::string shifted(static_cast<size_t>(bytes), '\0');
  auto* out = reinterpret_cast<uint8_t*>(shifted.data());
  for (int64_t i = 0; i < length; ++i) {
    if (bit_util::GetBit(bits, offset + i)) out[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  }
  if (codec_ != BodyCodec::kNone) return AppendBuffer(out, bytes);  // compressed into its own copy
  return AppendOwned(std::move(shifted));
}

template <typename Offset>
Status BodyWriter::AppendRebasedOffsets(const ArrayData& data, int64_t* first, int64_t* last) {
  const Offset* offsets = data.GetValues<Offset>(1);
  const auto bytes = static_cast<int64_t>((data.length + 1) * sizeof(Offset));
  if (offsets == nullptr) {  // an empty array without an offsets buffer: one zero offset
    *first = *last = 0;
    return AppendOwned(std::string(sizeof(Offset), '\0'));
  }
  *first = offsets[0];
  *last = offsets[data.length];
  if (*first == 0) return AppendBuffer(reinterpret_cast<const uint8_t*>(offsets), bytes);  // as they are
  std::string rebased(static_cast<size_t>(bytes), '\0');
  auto* out = reinterpret_cast<Offset*>(rebased.data());
  for (int64_t i = 0; i <= data.length; ++i) out[i] = offsets[i] - static_cast<Offset>(*first);
  if (codec_ != BodyCodec::kNone) return AppendBuffer(reinterpret_cast<const uint8_t*>(out), bytes);
  return AppendOwned(std::move(rebased));
}

Status BodyWriter::AppendViews(const ArrayData& data) {
  RETURN_NOT_OK(AppendBuffer(data.buffers[1] ? data.buffers[1]->data() + data.offset * kViewBytes : nullptr,
                             data.length * kViewBytes));
  variadic_buffer_counts_.push_back(static_cast<int64_t>(data.buffers.size()) - 2);
  for (size_t b = 2; b < data.buffers.size(); ++b) {
    const auto& buffer = data.buffers[b];
    RETURN_NOT_OK(AppendBuffer(buffer ? buffer->data() : nullptr, buffer ? buffer->size() : 0));
  }
  return Status::OK();
}

Status BodyWriter::AppendArray(const ArrayData& data) {
  const DataType& type = *data.type;
  const TypeId id = type.id();
  if (id == TypeId::kRunEndEncoded && data.offset != 0) {  // IPC arrays start at offset 0
    ASSIGN_OR_RETURN(auto compact, CompactRuns(data));
    made_.push_back(compact);
    return AppendArray(*compact);
  }
  nodes_.emplace_back(data.length, data.null_count);
  if (id == TypeId::kNull) return Status::OK();  // no buffers at all
  if (id == TypeId::kRunEndEncoded) {  // no buffers of its own: the runs, then their values
    for (const auto& child : data.children) RETURN_NOT_OK(AppendArray(*child));
    return Status::OK();
  }
  if (id != TypeId::kUnion) {  // V5 unions have no validity buffer
    if (data.null_count == 0 || data.validity() == nullptr) {
      RETURN_NOT_OK(AppendBuffer(nullptr, 0));
    } else {
      RETURN_NOT_OK(AppendBits(data.validity(), data.offset, data.length));
    }
  }
  const auto values = [&data](int i) { return data.buffers[static_cast<size_t>(i)] ? data.buffers[static_cast<size_t>(i)]->data() : nullptr; };
  switch (id) {
    case TypeId::kBool: return AppendBits(values(1), data.offset, data.length);
    case TypeId::kBinary:
    case TypeId::kUtf8:
    case TypeId::kLargeBinary:
    case TypeId::kLargeUtf8: {
      int64_t first = 0, last = 0;
      if (id == TypeId::kBinary || id == TypeId::kUtf8) {
        RETURN_NOT_OK(AppendRebasedOffsets<int32_t>(data, &first, &last));
      } else {
        RETURN_NOT_OK(AppendRebasedOffsets<int64_t>(data, &first, &last));
      }
      return AppendBuffer(values(2) == nullptr ? nullptr : values(2) + first, last - first);
    }
    case TypeId::kList:
    case TypeId::kMap:
    case TypeId::kLargeList: {
      int64_t first = 0, last = 0;
      if (id == TypeId::kLargeList) {
        RETURN_NOT_OK(AppendRebasedOffsets<int64_t>(data, &first, &last));
      } else {
        RETURN_NOT_OK(AppendRebasedOffsets<int32_t>(data, &first, &last));
      }
      return AppendArray(*data.children[0]->Slice(first, last - first));
    }
    case TypeId::kBinaryView:
    case TypeId::kUtf8View: return AppendViews(data);
    case TypeId::kListView:
    case TypeId::kLargeListView: {  // offsets and sizes as they are, into the whole child
      const int64_t width = id == TypeId::kListView ? 4 : 8;
      for (int b = 1; b <= 2; ++b) {
        RETURN_NOT_OK(AppendBuffer(values(b) == nullptr ? nullptr : values(b) + data.offset * width, data.length * width));
      }
      return AppendArray(*data.children[0]);
    }
    case TypeId::kFixedSizeList: {
      const int64_t size = type.params().width;
      return AppendArray(*data.children[0]->Slice(data.offset * size, data.length * size));
    }
    case TypeId::kStruct:
      for (const auto& child : data.children) RETURN_NOT_OK(AppendArray(*child->Slice(data.offset, data.length)));
      return Status::OK();
    case TypeId::kUnion: {
      RETURN_NOT_OK(AppendBuffer(values(1) + data.offset, data.length));
      const bool dense = type.params().union_mode == UnionMode::kDense;
      if (dense) RETURN_NOT_OK(AppendBuffer(values(2) + data.offset * 4, data.length * 4));
      for (const auto& child : data.children) {
        // Dense offsets point into whole children; sparse children line up with the union.
        RETURN_NOT_OK(AppendArray(dense ? *child : *child->Slice(data.offset, data.length)));
      }
      return Status::OK();
    }
    default: {  // fixed width: numbers, temporal, decimals, fixed-size binary, dictionary indices
      const int64_t width = id == TypeId::kDictionary ? type.params().index_type->bit_width() / 8
                            : id == TypeId::kFixedSizeBinary ? type.params().width
                                                              : type.bit_width() / 8;
      return AppendBuffer(values(1) == nullptr ? nullptr : values(1) + data.offset * width, data.length * width);
    }
  }
}

}  // namespace recflow::arrow_ipc
