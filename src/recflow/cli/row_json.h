// Renders RecordBatch rows as JSON objects (the `recflow cat` output format).
#pragma once

#include <cstdint>
#include <vector>

#include "recflow/cli/json_writer.h"
#include "recflow/columnar/array_data.h"
#include "recflow/columnar/record_batch.h"

namespace recflow::cli {

/// Writes element `i` of `data` as a JSON value: null for nulls, numbers (float32 in its
/// shortest round-trip form), bools, utf8 as strings, binary via JsonWriter::Bytes, lists as
/// arrays and structs as objects.
void WriteJsonValue(const ArrayData& data, int64_t i, JsonWriter* writer);

/// Renders whole rows of batches that share one schema.
class RowJsonRenderer {
 public:
  /// `sequence_example`: group the columns into {"context": {...}, "feature_lists": {...}}
  /// (feature lists as example::IsFeatureListField says); otherwise one flat object.
  RowJsonRenderer(const Schema& schema, bool sequence_example);

  /// Writes row `row` of `batch` as one JSON object.
  void Render(const RecordBatch& batch, int64_t row, JsonWriter* writer) const;

 private:
  void WriteMembers(const RecordBatch& batch, int64_t row, const std::vector<int>& columns, JsonWriter* writer) const;

  bool sequence_example_;
  std::vector<int> context_;        // column indices (all columns when not a SequenceExample)
  std::vector<int> feature_lists_;  // column indices of SequenceExample feature_lists
};

}  // namespace recflow::cli
