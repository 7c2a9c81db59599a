// FeatureKind and KindSummary: what one feature holds across records, and the column type that fits it (spark-tfrecord rules).
#pragma once

#include <cstdint>
#include <string_view>

#include "recflow/columnar/type.h"

namespace recflow::example {

/// The kind set in a tf.train.Feature's oneof (values are the protobuf field numbers).
enum class FeatureKind : uint8_t { kNone = 0, kBytesList = 1, kFloatList = 2, kInt64List = 3 };

/// "none", "bytes_list", "float_list", "int64_list".
std::string_view FeatureKindName(FeatureKind kind);

/// Accumulates the lists one feature held (across records, or across the steps of feature
/// lists) and derives its value type with spark-tfrecord's precedence:
/// int64 < float32 < bytes; bytes are utf8 when every bytes value seen was valid UTF-8.
class KindSummary {
 public:
  /// Records one Feature whose kind is set, with `length` values; `all_utf8` says whether
  /// every value of a BytesList was valid UTF-8 (ignored for the other kinds). As in
  /// spark-tfrecord, an empty list votes for nothing: neither a value type nor list-ness (a
  /// scalar column reads it as null).
  void Add(FeatureKind kind, int64_t length, bool all_utf8);
  /// Merges another summary (as if its Add calls had been made here).
  void Merge(const KindSummary& other);

  /// True when some non-empty list of this kind was seen.
  bool saw(FeatureKind kind) const { return (kinds_ & (1u << static_cast<unsigned>(kind))) != 0; }
  /// True when every non-empty list seen had exactly one value (and at least one was seen).
  bool scalar() const { return lists_ > 0 && !non_scalar_; }
  /// True when some empty list was seen.
  bool saw_empty() const { return saw_empty_; }
  /// int64, float32, binary or utf8; null() when no non-empty list was seen.
  DataTypePtr ValueType() const;
  /// ValueType(), or list<ValueType()> unless scalar(); null() when no value was seen.
  DataTypePtr ColumnType() const;

 private:
  uint8_t kinds_ = 0;
  bool non_scalar_ = false;
  bool saw_empty_ = false;
  bool bytes_all_utf8_ = true;
  int64_t lists_ = 0;
};

}  // namespace recflow::example
