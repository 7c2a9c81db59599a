// ValueDecoder: decodes Avro binary values of one schema node and appends them to recflow builders.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/core/result.h"
#include "recflow/formats/avro/avro_schema_internal.h"
#include "recflow/formats/avro/binary_cursor_internal.h"

namespace recflow::avro {

/// a + b for minimum encoded sizes, saturating far below overflow (huge fixed types only
/// bound counts, so a saturated size is still a valid lower bound).
inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  constexpr int64_t kCap = std::numeric_limits<int64_t>::max() / 4;
  return std::min(kCap, std::min(kCap, a) + std::min(kCap, b));
}

/// The decoding plan of one Avro type (already accepted by FieldFromAvro). Immutable, so one
/// plan serves any number of threads, each appending to its own builders.
class ValueDecoder {
 public:
  /// A decoder of `node`, the type at field path `path`.
  static Result<std::unique_ptr<ValueDecoder>> Make(const std::string& path, const AvroNode& node);

  /// Reads one value from `in` and appends exactly one element to `builder`, which must have
  /// been made by MakeBuilder for FieldFromAvro's type of the node. DataErrors name the field.
  Status Decode(BinaryCursor& in, ArrayBuilder* builder) const;
  /// The fewest bytes a value of this type takes (bounds hostile counts).
  int64_t min_size() const { return min_size_; }

 private:
  explicit ValueDecoder(std::string path) : path_(std::move(path)) {}
  Status Init(const AvroNode& node);
  Status DecodeValue(BinaryCursor& in, ArrayBuilder* builder) const;
  Status DecodeString(BinaryCursor& in, ArrayBuilder* builder) const;
  Status DecodeDecimal(std::span<const uint8_t> unscaled, ArrayBuilder* builder) const;
  Status DecodeArray(BinaryCursor& in, ArrayBuilder* builder) const;
  Status DecodeMap(BinaryCursor& in, ArrayBuilder* builder) const;
  Status DecodeRecord(BinaryCursor& in, ArrayBuilder* builder) const;

  std::string path_;
  AvroType type_ = AvroType::kNull;
  LogicalType logical_type_ = LogicalType::kNone;
  int scale_ = 0;
  int64_t num_branches_ = 0;   // union branch count; 0 when the value is not a union
  int64_t value_branch_ = -1;  // the union branch holding a value; the others are null
  int64_t fixed_size_ = 0;
  int64_t min_size_ = 0;
  std::vector<std::string> symbols_;                      // enum symbols by index
  std::vector<std::unique_ptr<ValueDecoder>> children_;  // array item, map value or record fields
};

}  // namespace recflow::avro
