// ValueSink: converts the values of a resolved Feature into one leaf builder (checks first, then appends).
#pragma once

#include <cstddef>
#include <cstdint>

#include "recflow/columnar/builder.h"
#include "recflow/core/status.h"
#include "recflow/formats/example/feature_kind.h"
#include "recflow/formats/example/wire_internal.h"

namespace recflow::example {

/// Appends the values of validated list messages to a leaf builder of type bool, int8..uint64,
/// float32, float64, binary or utf8. Check() runs every test a value can fail (kind, range,
/// UTF-8, int32 offset capacity) so that Append() fails only when memory runs out.
class ValueSink {
 public:
  /// `leaf` must be of a type that DataType::is_primitive(); it is owned by the caller.
  explicit ValueSink(ArrayBuilder* leaf) : leaf_(leaf), id_(leaf->type()->id()) {}

  /// Forgets what the previous row's Check() calls reserved.
  void BeginRow() {
    pending_values_ = 0;
    pending_bytes_ = 0;
  }
  /// Checks that `count` values of `kind` in `lists[0, n)` fit this column (an empty list
  /// always does): the kind converts (else TypeError), integers are in range (TypeError),
  /// BytesList values for utf8 are valid UTF-8 (DataError), and the int32 offsets of the
  /// column and of its parent list do not overflow (DataError). Accumulates over the row.
  Status Check(FeatureKind kind, const wire::Span* lists, size_t n, int64_t count);
  /// Appends the values (call only after Check() passed for the same arguments).
  Status Append(FeatureKind kind, const wire::Span* lists, size_t n, int64_t count);

 private:
  Status CheckBinary(FeatureKind kind, const wire::Span* lists, size_t n);
  Status AppendBinary(FeatureKind kind, const wire::Span* lists, size_t n, int64_t count);

  ArrayBuilder* leaf_;
  TypeId id_;
  int64_t pending_values_ = 0;
  int64_t pending_bytes_ = 0;
};

/// Writes the decimal text of an int64 (as spark-tfrecord does when a column was promoted to
/// string) into buf (≥ 32 bytes); returns the length.
int FormatInt64(int64_t v, char* buf);
/// Writes the shortest text that round-trips a float32 into buf (≥ 32 bytes); returns the
/// length.
int FormatFloat(float v, char* buf);

}  // namespace recflow::example
