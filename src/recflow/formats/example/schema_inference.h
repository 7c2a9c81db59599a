// SchemaInferrer: a spark-tfrecord-compatible schema from sampled tf.Example / SequenceExample records, with per-feature statistics.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/example/feature_kind.h"
#include "recflow/formats/example/record_type.h"

namespace recflow::example {

/// What was observed of one feature (a context feature, or a feature list) over the records.
struct FeatureStats {
  std::string name;           ///< feature name (map key)
  bool feature_list = false;  ///< a SequenceExample feature list (else a feature / context)
  int64_t present = 0;        ///< records where it had a kind set (feature lists: where it appeared)
  int64_t missing = 0;        ///< records without it
  int64_t kindless = 0;       ///< records where it was a Feature with no kind set
  int64_t min_length = -1;    ///< shortest list (feature lists: fewest steps); -1 if never present
  int64_t max_length = -1;    ///< longest list (feature lists: most steps); -1 if never present
  int64_t min_inner_length = -1;  ///< feature lists: shortest step list (kind set); else -1
  int64_t max_inner_length = -1;  ///< feature lists: longest step list (kind set); else -1
  KindSummary kinds;          ///< kinds, lengths and UTF-8-ness seen
};

/// Observes records and infers the schema spark-tfrecord would (see issue 2 and
/// docs/formats/example.md): Int64List → int64, FloatList → float32, BytesList → binary or utf8,
/// scalar when every present list had one value, feature lists → list<list<T>>, conflicts by
/// int64 < float32 < bytes, never-valued features → null type, nullable only when the feature
/// was missing or kind-less somewhere. Fields in order of first appearance; for
/// kSequenceExample every field carries kKindMetadataKey.
class SchemaInferrer {
 public:
  /// An inferrer for records of `type`.
  explicit SchemaInferrer(RecordType type);
  ~SchemaInferrer();
  SchemaInferrer(SchemaInferrer&&) noexcept;
  SchemaInferrer& operator=(SchemaInferrer&&) noexcept;

  /// Observes one serialized record. A malformed record is a DataError (with no file or record
  /// context: the caller adds them) and leaves the statistics unchanged.
  Status Observe(std::string_view record);
  /// The schema of everything observed so far (kByteArray: ByteArraySchema()).
  SchemaPtr Finish() const;
  /// Per-feature statistics, in field order.
  const std::vector<FeatureStats>& stats() const { return stats_; }
  /// Records observed.
  int64_t records() const { return records_; }
  /// The record type given to the constructor.
  RecordType record_type() const { return type_; }

 private:
  struct Scratch;
  RecordType type_;
  int64_t records_ = 0;
  std::vector<FeatureStats> stats_;
  std::unique_ptr<Scratch> scratch_;  ///< per-record lookup state, reused
};

}  // namespace recflow::example
