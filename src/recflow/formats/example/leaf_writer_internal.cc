// LeafWriter: per-type sizing and writing of list messages (packed varints, packed floats, bytes).
#include "recflow/formats/example/leaf_writer_internal.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "recflow/columnar/bit_util.h"
#include "recflow/formats/example/message_internal.h"

namespace recflow::example {

namespace {

template <typename T>
int64_t VarintPayload(const T* v, int64_t begin, int64_t end, bool* overflow) {
  int64_t size = 0;
  for (int64_t i = begin; i < end; ++i) {
    if constexpr (std::is_same_v<T, uint64_t>) {
      if (v[i] > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) *overflow = true;
    }
    size += wire::VarintSize(static_cast<uint64_t>(static_cast<int64_t>(v[i])));
  }
  return size;
}

// double → float with IEEE round-to-nearest, also for finite values beyond float's range (where
// a plain cast is undefined behaviour in C++): they round to ±FLT_MAX or ±infinity.
float NarrowToFloat(double v) {
  constexpr double kMax = std::numeric_limits<float>::max();
  if (std::isfinite(v) && std::fabs(v) > kMax) {
    const double halfway = kMax + std::ldexp(1.0, 103);  // half an ulp above FLT_MAX: ties go to infinity
    return static_cast<float>(std::copysign(std::fabs(v) >= halfway ? std::numeric_limits<float>::infinity()
                                                                    : std::numeric_limits<float>::max(),
                                            v));
  }
  return static_cast<float>(v);
}

template <typename T>
uint8_t* WriteVarints(uint8_t* p, const T* v, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) p = wire::WriteVarint(p, static_cast<uint64_t>(static_cast<int64_t>(v[i])));
  return p;
}

}  // namespace

LeafWriter::LeafWriter(const ArrayData& leaf) : leaf_(leaf), id_(leaf.type->id()), kind_(KindOf(id_)) {}

FeatureKind LeafWriter::KindOf(TypeId id) {
  switch (id) {
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return FeatureKind::kFloatList;
    case TypeId::kBinary:
    case TypeId::kUtf8:
      return FeatureKind::kBytesList;
    default:
      return FeatureKind::kInt64List;
  }
}

Status LeafWriter::PayloadSize(int64_t begin, int64_t end, int64_t* payload) const {
  if (leaf_.null_count > 0) {
    const uint8_t* validity = leaf_.validity();
    for (int64_t i = begin; i < end; ++i) {
      if (validity && !bit_util::GetBit(validity, leaf_.offset + i)) {
        return Status::DataError("a list holds a null element (tf.Example lists cannot)");
      }
    }
  }
  bool overflow = false;
  switch (id_) {
    case TypeId::kBool:
      *payload = end - begin;
      return Status::OK();
    case TypeId::kInt8:
      *payload = VarintPayload(leaf_.GetValues<int8_t>(1), begin, end, &overflow);
      return Status::OK();
    case TypeId::kInt16:
      *payload = VarintPayload(leaf_.GetValues<int16_t>(1), begin, end, &overflow);
      return Status::OK();
    case TypeId::kInt32:
      *payload = VarintPayload(leaf_.GetValues<int32_t>(1), begin, end, &overflow);
      return Status::OK();
    case TypeId::kInt64:
      *payload = VarintPayload(leaf_.GetValues<int64_t>(1), begin, end, &overflow);
      return Status::OK();
    case TypeId::kUInt8:
      *payload = VarintPayload(leaf_.GetValues<uint8_t>(1), begin, end, &overflow);
      return Status::OK();
    case TypeId::kUInt16:
      *payload = VarintPayload(leaf_.GetValues<uint16_t>(1), begin, end, &overflow);
      return Status::OK();
    case TypeId::kUInt32:
      *payload = VarintPayload(leaf_.GetValues<uint32_t>(1), begin, end, &overflow);
      return Status::OK();
    case TypeId::kUInt64:
      *payload = VarintPayload(leaf_.GetValues<uint64_t>(1), begin, end, &overflow);
      if (overflow) return Status::TypeError("a uint64 value above INT64_MAX does not fit an Int64List");
      return Status::OK();
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      *payload = 4 * (end - begin);
      return Status::OK();
    default: {
      const int32_t* offsets = leaf_.GetValues<int32_t>(1);
      int64_t size = 0;
      for (int64_t i = begin; i < end; ++i) size += wire::LengthDelimitedSize(offsets[i + 1] - offsets[i]);
      *payload = size;
      return Status::OK();
    }
  }
}

uint8_t* LeafWriter::Write(uint8_t* p, int64_t begin, int64_t end, int64_t payload, int64_t* narrowed) const {
  if (kind_ == FeatureKind::kBytesList) {
    const int32_t* offsets = leaf_.GetValues<int32_t>(1);
    const uint8_t* data = leaf_.buffers[2] ? leaf_.buffers[2]->data() : nullptr;
    for (int64_t i = begin; i < end; ++i) {
      const int64_t n = offsets[i + 1] - offsets[i];
      p = wire::WriteLengthHeader(p, static_cast<uint8_t>(msg::kListPacked), static_cast<uint64_t>(n));
      if (n > 0) std::memcpy(p, data + offsets[i], static_cast<size_t>(n));
      p += n;
    }
    return p;
  }
  if (begin == end) return p;
  p = wire::WriteLengthHeader(p, static_cast<uint8_t>(msg::kListPacked), static_cast<uint64_t>(payload));
  switch (id_) {
    case TypeId::kBool: {
      const uint8_t* bits = leaf_.buffers[1]->data();
      for (int64_t i = begin; i < end; ++i) *p++ = bit_util::GetBit(bits, leaf_.offset + i) ? 1 : 0;
      return p;
    }
    case TypeId::kInt8:
      return WriteVarints(p, leaf_.GetValues<int8_t>(1), begin, end);
    case TypeId::kInt16:
      return WriteVarints(p, leaf_.GetValues<int16_t>(1), begin, end);
    case TypeId::kInt32:
      return WriteVarints(p, leaf_.GetValues<int32_t>(1), begin, end);
    case TypeId::kInt64:
      return WriteVarints(p, leaf_.GetValues<int64_t>(1), begin, end);
    case TypeId::kUInt8:
      return WriteVarints(p, leaf_.GetValues<uint8_t>(1), begin, end);
    case TypeId::kUInt16:
      return WriteVarints(p, leaf_.GetValues<uint16_t>(1), begin, end);
    case TypeId::kUInt32:
      return WriteVarints(p, leaf_.GetValues<uint32_t>(1), begin, end);
    case TypeId::kUInt64:
      return WriteVarints(p, leaf_.GetValues<uint64_t>(1), begin, end);
    case TypeId::kFloat32: {
      const size_t n = static_cast<size_t>(end - begin) * 4;
      std::memcpy(p, leaf_.GetValues<float>(1) + begin, n);
      return p + n;
    }
    default: {  // float64
      const double* v = leaf_.GetValues<double>(1);
      for (int64_t i = begin; i < end; ++i) {
        const float f = NarrowToFloat(v[i]);
        if (static_cast<double>(f) != v[i] && !std::isnan(v[i])) ++*narrowed;
        std::memcpy(p, &f, 4);
        p += 4;
      }
      return p;
    }
  }
}

}  // namespace recflow::example
