// Grouping: rows bucketed by the value of key columns — the shared core of GroupByKey, CombinePerKey and
// CombineGlobally (partial groups per batch in parallel, merged in input order).
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/formats/sink.h"
#include "recflow/pipeline/combiner.h"
#include "recflow/pipeline/pipeline.h"

namespace recflow::pipeline {

/// The rows of one batch grouped by key, in order of first appearance. With no key columns
/// every row is in one group.
struct BatchGroups {
  std::vector<std::string> keys;             ///< each group's encoded key
  std::vector<std::vector<int64_t>> rows;    ///< each group's rows, in order
  std::shared_ptr<RecordBatch> key_rows;     ///< the key columns at each group's first row
};

/// Groups the rows of `batch` by the columns `key_columns` (indices). Keys compare by value:
/// nulls equal each other, -0.0 equals 0.0, every NaN equals every NaN. Window ids of
/// streaming runs join the key the same way, as one more key column.
Result<BatchGroups> GroupRows(const RecordBatch& batch, const std::vector<int>& key_columns);

/// The state of one GroupByKey, CombinePerKey or CombineGlobally node over a whole stage, as a
/// Sink: Consume (any thread) groups a batch (and, for combines, aggregates each group), Merge (in
/// input order) folds it in, NextOutput makes the output batches one at a time.
class GroupedState : public Sink {
 public:
  /// For `node` (a kGroupByKey, kCombinePerKey or kCombineGlobally node) whose input has
  /// schema `input`.
  static Result<std::unique_ptr<GroupedState>> Make(const Node& node, const SchemaPtr& input);

  /// The next batch of output rows (the node's schema), at most `batch_rows` rows, groups in
  /// order of first appearance; nullptr after the last. Call after the last Merge, from one
  /// thread at a time, with the same `batch_rows` each time: the state may give up what it holds
  /// as it goes, so a consumer can take each batch while the next is made.
  virtual Result<std::shared_ptr<RecordBatch>> NextOutput(int64_t batch_rows) = 0;
};

}  // namespace recflow::pipeline
