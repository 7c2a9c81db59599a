// Decoder: serialized tf.Example / tf.SequenceExample / raw records straight into columnar builders.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "recflow/columnar/record_batch.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/formats/example/record_type.h"

namespace recflow::example {

class DecoderImpl;

/// Decodes serialized records into the columns of a fixed schema, one row per record, without
/// building message objects. Parsing follows libprotobuf exactly (see docs/formats/example.md):
/// a record that libprotobuf rejects is a DataError here too.
///
/// Column types: null (always null); bool, int8..int64, uint8..uint64 (from Int64List, range
/// checked; bool = nonzero); float32, float64 (from FloatList, or Int64List converted); utf8,
/// binary (from BytesList, or Int64List/FloatList values as decimal text); list<T> of those;
/// list<list<T>> for SequenceExample feature lists. A scalar column takes a list of length 1
/// (empty → null, longer → DataError). Missing feature or a Feature with no kind → null.
///
/// Errors name the feature (Status::WithField); the caller adds file, offset and record.
/// A failed Append adds nothing: each record is validated and appended in one walk, and a
/// record that fails (wire, kinds, ranges, UTF-8, nullability, int32 offset capacity, or
/// memory) is truncated away from every column. A wire error is reported first; otherwise the
/// first column error in schema order.
class Decoder {
 public:
  /// Checks that every column type is supported for `type` (kByteArray: exactly one binary or
  /// utf8 column). Column names must be unique within a kind (context / feature_list).
  static Result<std::unique_ptr<Decoder>> Make(SchemaPtr schema, RecordType type);
  ~Decoder();
  Decoder(const Decoder&) = delete;
  Decoder& operator=(const Decoder&) = delete;

  /// Decodes one record into one row; on error the row is not added.
  Status Append(std::string_view record);
  /// Rows appended since the last Finish().
  int64_t num_rows() const;
  /// The rows appended since the last Finish(), as a batch of the decoder's schema.
  Result<std::shared_ptr<RecordBatch>> Finish();
  /// The schema given to Make().
  const SchemaPtr& schema() const;
  /// The record type given to Make().
  RecordType record_type() const;

 private:
  explicit Decoder(std::unique_ptr<DecoderImpl> impl);
  std::unique_ptr<DecoderImpl> impl_;
};

}  // namespace recflow::example
