// The window and pane columns of a windowed grouping's output, and rows' event times read from their column.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"
#include "recflow/pipeline/window/windowing.h"

namespace recflow::pipeline {

/// The columns a windowed grouping appends to each output row: window_start, window_end (end
/// exclusive) and timestamp (the pane's output time) as int64 epoch milliseconds, pane_index and
/// pane_nonspeculative_index (int64), pane_timing ("early", "on_time", "late"), pane_is_first and
/// pane_is_last (bool).
std::vector<FieldPtr> WindowColumnFields();

/// One output row's window and pane.
struct PaneRow {
  window::Window window;
  window::PaneInfo info;
  window::Millis timestamp = 0;
};

/// The WindowColumnFields columns of `panes`.
Result<std::vector<std::shared_ptr<ArrayData>>> WindowColumns(std::span<const PaneRow> panes);

/// Field metadata a source puts on the column that holds its rows' event times (value "ms":
/// integer epoch milliseconds), so a window step after it needs no `event_time:`.
inline constexpr const char* kEventTimeMetadataKey = "recflow.event_time";

/// The column of `schema` a source marked with kEventTimeMetadataKey, or -1.
int MarkedEventTimeColumn(const Schema& schema);

/// InvalidArgument unless `field` can hold event times: an integer, a timestamp or text.
Status CheckEventTimeField(const Field& field);

/// The event time of each row of `column` (of `field`) in epoch milliseconds: integers as
/// milliseconds (microseconds when `micros`, floored to the millisecond), timestamps by their
/// unit, text as ISO-8601. A null or unparsable value is an InvalidArgument naming the row as
/// its record and the column as its field.
Status EventTimes(const ArrayData& column, const Field& field, bool micros, std::vector<window::Millis>* out);

}  // namespace recflow::pipeline
