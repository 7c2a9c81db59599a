// ColumnInference: the type and nullability of one CSV column, learned from sampled values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "recflow/columnar/schema.h"

namespace recflow::csv {

/// Accumulates the sampled values of one column and picks its type: the first of bool, int64,
/// float64, timestamp (int64 microseconds tagged kTimestampLogicalType) that every non-empty,
/// non-null value parses as; otherwise utf8, or binary when some value is not valid UTF-8.
/// A column whose sample holds no value at all is utf8.
class ColumnInference {
 public:
  /// Observes a null (a field matching ReadOptions::null_values).
  void ObserveNull() { saw_null_ = true; }
  /// Observes a non-null value (already unquoted and unescaped).
  void Observe(std::string_view value);

  /// The inferred field. Nullable when a null was seen, or when an empty value was seen and
  /// the type is not a string (empty fields are null in typed columns), or when
  /// `infer_nullability` is false.
  FieldPtr MakeField(std::string name, bool infer_nullability) const;

 private:
  static constexpr uint8_t kBool = 1;
  static constexpr uint8_t kInt = 2;
  static constexpr uint8_t kFloat = 4;
  static constexpr uint8_t kTimestamp = 8;
  static constexpr uint8_t kTyped = kBool | kInt | kFloat | kTimestamp;

  uint8_t candidates_ = kTyped;
  bool valid_utf8_ = true;
  bool saw_value_ = false;
  bool saw_null_ = false;
  bool saw_empty_ = false;
};

}  // namespace recflow::csv
