// Row matchers: does row r of a recflow RecordBatch hold exactly what libprotobuf parsed?
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "example.pb.h"
#include "recflow/columnar/record_batch.h"

namespace recflow::interop {

/// Which side of the comparison is the source of truth.
enum class Direction {
  /// The message was decoded by recflow: missing and kind-less features are null cells, and
  /// features the schema does not name are ignored.
  kDecoded,
  /// The row was encoded by recflow and parsed by libprotobuf: null cells must be absent
  /// features, and every feature must belong to a column.
  kEncoded,
};

/// Row `row` of `batch` (a tf.Example schema) equals `example`.
::testing::AssertionResult RowMatchesExample(const RecordBatch& batch, int64_t row, const oracle::Example& example,
                                             Direction direction);

/// Row `row` of `batch` (a tf.SequenceExample schema: columns marked "context" or
/// "feature_list" in their tfrecord.kind metadata, or by type list<list<T>>) equals `example`.
::testing::AssertionResult RowMatchesSequenceExample(const RecordBatch& batch, int64_t row,
                                                     const oracle::SequenceExample& example, Direction direction);

}  // namespace recflow::interop
