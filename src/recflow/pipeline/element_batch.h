// ElementBatch: a RecordBatch moving through a pipeline stage, with the source row each of its rows came from.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "recflow/columnar/record_batch.h"

namespace recflow::pipeline {

/// A batch of elements plus their provenance inside the source unit they were decoded from.
struct ElementBatch {
  /// The rows.
  std::shared_ptr<RecordBatch> data;
  /// Row i came from row unit_rows[i] of its unit's decoded batch; empty when row i came from
  /// row i (no row was dropped, added or reordered since decoding).
  std::vector<int64_t> unit_rows;

  /// The unit row that row `i` came from.
  int64_t UnitRow(int64_t i) const { return unit_rows.empty() ? i : unit_rows[static_cast<size_t>(i)]; }
  /// Rows.
  int64_t num_rows() const { return data == nullptr ? 0 : data->num_rows(); }
};

}  // namespace recflow::pipeline
