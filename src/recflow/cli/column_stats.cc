// ColumnStats: null counts from each column's exact null_count, list lengths from each list-like column's ranges.
#include "recflow/cli/column_stats.h"

#include <algorithm>

#include "recflow/columnar/bit_util.h"
#include "recflow/columnar/element_access.h"

namespace recflow::cli {

ColumnStats::ColumnStats(const Schema& schema) {
  for (const FieldPtr& field : schema.fields()) stats_.push_back({field->name()});
}

void ColumnStats::Observe(const RecordBatch& batch) {
  for (size_t c = 0; c < stats_.size(); ++c) {
    const ArrayData& column = *batch.column_data(static_cast<int>(c));
    ColumnStat& stat = stats_[c];
    stat.nulls += column.null_count;
    const TypeId id = column.type->id();
    const bool list_like = id == TypeId::kList || id == TypeId::kLargeList || id == TypeId::kFixedSizeList ||
                           id == TypeId::kMap || id == TypeId::kListView || id == TypeId::kLargeListView;
    if (!list_like) continue;
    const uint8_t* validity = column.validity();
    for (int64_t i = 0; i < column.length; ++i) {
      if (validity != nullptr && !bit_util::GetBit(validity, column.offset + i)) continue;
      const int64_t length = ListRange(column, i).length;
      stat.min_length = stat.min_length < 0 ? length : std::min(stat.min_length, length);
      stat.max_length = std::max(stat.max_length, length);
    }
  }
}

}  // namespace recflow::cli
