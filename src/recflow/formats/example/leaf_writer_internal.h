// LeafWriter: sizes and writes BytesList / FloatList / Int64List messages from a range of a leaf array.
#pragma once

#include <cstdint>

#include "recflow/columnar/array_data.h"
#include "recflow/core/status.h"
#include "recflow/formats/example/feature_kind.h"
#include "recflow/formats/example/wire_internal.h"

namespace recflow::example {

/// Reads values [begin, end) of a leaf array (bool, integers, floats, binary, utf8) and writes
/// them as the list message TensorFlow writes: packed Int64List / FloatList, BytesList.
class LeafWriter {
 public:
  /// `leaf` must stay alive while the writer is used.
  explicit LeafWriter(const ArrayData& leaf);

  /// The list kind this leaf type is written as.
  static FeatureKind KindOf(TypeId id);
  /// The list kind of this leaf.
  FeatureKind kind() const { return kind_; }

  /// The payload of values [begin, end): varint / float bytes of the packed run, or the
  /// serialized BytesList. A null element or a uint64 above INT64_MAX is an error.
  Status PayloadSize(int64_t begin, int64_t end, int64_t* payload) const;
  /// Size of the list message with `count` values and that payload.
  int64_t MessageSize(int64_t count, int64_t payload) const {
    if (kind_ == FeatureKind::kBytesList || count == 0) return payload;
    return wire::LengthDelimitedSize(payload);
  }
  /// Writes the list message of values [begin, end) with the payload PayloadSize() gave.
  /// Counts float64 values that float32 cannot hold exactly in *narrowed.
  uint8_t* Write(uint8_t* p, int64_t begin, int64_t end, int64_t payload, int64_t* narrowed) const;


 private:
  const ArrayData& leaf_;
  TypeId id_;
  FeatureKind kind_;
};

}  // namespace recflow::example
