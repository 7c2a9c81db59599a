// Renders RecordBatch rows as JSON objects (`recflow cat` output and JSON Lines output).
#pragma once

#include <cstdint>
#include <vector>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/record_batch.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/status.h"
#include "recflow/formats/jsonl/json_writer.h"

namespace recflow::jsonl {

/// Writes element `i` of `data`, a column of `field`, as a JSON value: null for nulls, numbers
/// (floats in their shortest round-trip form), bools, utf8 as strings, binary via
/// JsonWriter::Bytes, lists as arrays, structs as objects, and timestamps (IsTimestampField, at
/// any depth) as ISO-8601 strings `YYYY-MM-DDTHH:MM:SS.ffffffZ` (FormatTimestamp).
/// Arrow's other types: large and fixed-size binary as binary, large_utf8 as utf8, the other
/// list kinds as arrays, a map as the array of its {key, value} entry objects, a union as its
/// selected child's value, a dictionary element as its value, float16 as a number, durations
/// as integers (in their unit), intervals as months or {days, milliseconds} or {months, days,
/// nanoseconds}, and as strings: dates `YYYY-MM-DD`, times `HH:MM:SS[.fraction]`, timestamps
/// `YYYY-MM-DDTHH:MM:SS[.fraction]` (with `Z` when the type has a time zone: the value is a UTC
/// instant), decimals exactly (`-12.50`). A date or timestamp outside the years 0000..9999 is a
/// TypeError; the writer is then mid-value and must be discarded.
Status WriteJsonValue(const Field& field, const ArrayData& data, int64_t i, JsonWriter* writer);

/// Renders whole rows of batches that share one schema.
class RowJsonRenderer {
 public:
  /// `sequence_example`: group the columns into {"context": {...}, "feature_lists": {...}}
  /// (feature lists as example::IsFeatureListField says); otherwise one flat object.
  RowJsonRenderer(const Schema& schema, bool sequence_example);

  /// Writes row `row` of `batch` (of the constructor's schema) as one JSON object. Errors are
  /// WriteJsonValue's, naming the column (field).
  Status Render(const RecordBatch& batch, int64_t row, JsonWriter* writer) const;

 private:
  Status WriteMembers(const RecordBatch& batch, int64_t row, const std::vector<int>& columns,
                      JsonWriter* writer) const;

  std::vector<FieldPtr> fields_;
  bool sequence_example_;
  std::vector<int> context_;        // column indices (all columns when not a SequenceExample)
  std::vector<int> feature_lists_;  // column indices of SequenceExample feature_lists
};

}  // namespace recflow::jsonl
