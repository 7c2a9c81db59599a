// ValueSink: validates the list messages of one Feature and appends their values to a leaf builder in the same walk.
#pragma once

#include <cstdint>

#include "recflow/columnar/builder.h"
#include "recflow/core/status.h"
#include "recflow/formats/example/feature_kind.h"
#include "recflow/formats/example/wire_internal.h"

namespace recflow::example {

/// Appends the values of a Feature's list messages to a leaf builder of type bool,
/// int8..uint64, float32, float64, binary or utf8, validating the wire as it goes. A wire
/// error is returned at once; a conversion error (kind, range, UTF-8, int32 capacity) is kept
/// until EndFeature(), since a later oneof member of the same Feature may still replace the
/// values that caused it. The values stay in the builder either way: the caller truncates.
class ValueSink {
 public:
  /// `leaf` must be of a type that DataType::is_primitive(); it is owned by the caller.
  explicit ValueSink(ArrayBuilder* leaf) : leaf_(leaf), id_(leaf->type()->id()) {}

  /// Starts a Feature: no kind, no values, no error.
  void BeginFeature() {
    kind_ = FeatureKind::kNone;
    start_ = leaf_->length();
    ClearValues();
  }
  /// The oneof member seen last (kNone before the first).
  FeatureKind kind() const { return kind_; }
  /// Makes `kind` the Feature's member: a member other than the current one drops the values
  /// appended so far (libprotobuf's oneof switch); the same member again concatenates.
  void SetKind(FeatureKind kind) {
    if (kind == kind_) return;
    if (kind_ != FeatureKind::kNone) leaf_->Truncate(start_);
    kind_ = kind;
    fits_ = Fits(kind);
    ClearValues();
  }
  /// Validates a list message of the current kind at `depth` and appends its values.
  Status AppendList(const wire::Span& list, int depth);
  /// Values of the Feature so far (appended, or counted when the kind does not fit).
  int64_t count() const { return leaf_->length() - start_ + skipped_; }
  /// The conversion error of the Feature, or OK: the column's int32 capacity (DataError), a
  /// kind that does not convert (TypeError), the first integer out of range (TypeError) or
  /// BytesList value that is not UTF-8 for a utf8 column (DataError), the data bytes' int32
  /// capacity (DataError). An empty list always fits.
  Status EndFeature() const {
    if (fits_ && bad_value_ == BadValue::kNone && !bytes_overflow_ && leaf_->length() <= kMaxInt32Offset) [[likely]] {
      return Status::OK();
    }
    return FeatureError();
  }

 private:
  void ClearValues() {
    skipped_ = 0;
    bad_value_ = BadValue::kNone;
    bytes_overflow_ = false;
  }
  bool Fits(FeatureKind kind) const;
  Status FeatureError() const;
  /// An Int64List value as T, noting the first one out of T's range.
  template <typename T>
  T FromInt64(uint64_t raw);
  template <typename T>
  Status AppendInts(wire::Span run, int64_t count);
  template <typename T>
  Status AppendFloats(wire::Span run, int64_t count);
  Status AppendBytes(const uint8_t* data, int64_t n);
  Status AppendRun(wire::Span run, int64_t count);

  enum class BadValue : uint8_t { kNone, kRange, kUtf8 };

  ArrayBuilder* leaf_;
  TypeId id_;
  FeatureKind kind_ = FeatureKind::kNone;
  bool fits_ = false;  ///< whether kind_'s values convert to the leaf type
  int64_t start_ = 0;    ///< leaf length when the Feature began
  int64_t skipped_ = 0;  ///< values validated, not appended (a kind that does not fit, data past int32)
  BadValue bad_value_ = BadValue::kNone;
  int64_t bad_int_ = 0;  ///< the first integer out of range
  bool bytes_overflow_ = false;
};

/// Writes the decimal text of an int64 (as spark-tfrecord does when a column was promoted to
/// string) into buf (≥ 32 bytes); returns the length.
int FormatInt64(int64_t v, char* buf);
/// Writes the shortest text that round-trips a float32 into buf (≥ 32 bytes); returns the
/// length.
int FormatFloat(float v, char* buf);

}  // namespace recflow::example
