// Encoder: RecordBatch rows to serialized tf.Example / tf.SequenceExample / raw records.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "recflow/columnar/record_batch.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/example/record_type.h"

namespace recflow::example {

/// Counters of what the encoder had to adapt.
struct EncodeStats {
  int64_t records = 0;           ///< records encoded
  int64_t bytes = 0;             ///< serialized bytes produced
  int64_t narrowed_doubles = 0;  ///< float64 values that do not round-trip through float32
};

class EncoderImpl;

/// Encodes rows as TensorFlow writes them: int/uint/bool → Int64List (packed), float32/float64
/// → FloatList (packed), utf8/binary → BytesList, list<T> of those, and for kSequenceExample
/// list<list<T>> columns (or columns marked feature_list) → feature_lists, the rest → context.
/// A null value omits the feature; a null inner list of a feature list is written as a Feature
/// with no kind. Map entries follow schema order. kByteArray writes the one binary column as is.
class Encoder {
 public:
  /// Checks that every column type can be written for `type` (list<list<T>> only in
  /// kSequenceExample; struct never: TypeError) and that names are valid UTF-8
  /// (InvalidArgument).
  static Result<std::unique_ptr<Encoder>> Make(SchemaPtr schema, RecordType type);
  ~Encoder();
  Encoder(const Encoder&) = delete;
  Encoder& operator=(const Encoder&) = delete;

  /// Serializes row `row` of `batch` (whose schema must equal the encoder's) into *out,
  /// replacing its content. uint64 values above INT64_MAX are a TypeError naming the column;
  /// a null in a kByteArray column is a DataError.
  Status Encode(const RecordBatch& batch, int64_t row, std::string* out);
  /// Counters since Make().
  const EncodeStats& stats() const;
  /// The schema given to Make().
  const SchemaPtr& schema() const;

 private:
  explicit Encoder(std::unique_ptr<EncoderImpl> impl);
  std::unique_ptr<EncoderImpl> impl_;
};

}  // namespace recflow::example
