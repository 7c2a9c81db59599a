// Per-column statistics of record batches (nulls, list lengths) for `recflow inspect`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"

namespace recflow::cli {

/// What inspect reports for one column.
struct ColumnStat {
  std::string name;
  int64_t nulls = 0;        ///< rows where the column is null
  int64_t min_length = -1;  ///< list, large_list, fixed_size_list and map columns: the shortest non-null entry; else -1
  int64_t max_length = -1;  ///< list, large_list, fixed_size_list and map columns: the longest non-null entry; else -1
};

/// Accumulates ColumnStats over the batches of one schema.
class ColumnStats {
 public:
  /// One (zeroed) stat per field of `schema`.
  explicit ColumnStats(const Schema& schema);
  /// Adds the rows of `batch` (which has the schema given to the constructor).
  void Observe(const RecordBatch& batch);
  /// The stats, in field order.
  const std::vector<ColumnStat>& stats() const { return stats_; }

 private:
  std::vector<ColumnStat> stats_;
};

}  // namespace recflow::cli
