// Run ends of run_end_encoded arrays: building them and cutting an array down to the runs it uses.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "recflow/columnar/array_data.h"
#include "recflow/core/result.h"

namespace recflow {

/// An array of `type` (int16, int32 or int64) holding `ends`; DataError when an end does not
/// fit the type.
Result<std::shared_ptr<ArrayData>> MakeRunEnds(const DataTypePtr& type, const std::vector<int64_t>& ends);

/// The run ends of the valid run_end_encoded array `data` as seen from its offset: one per run
/// its elements touch, shifted so that element 0 is slot 0 and the last one cut at its length.
/// `first_run` receives the run (index into the values child) of element 0.
std::vector<int64_t> VisibleRunEnds(const ArrayData& data, int64_t* first_run);

/// `data` as an equal run_end_encoded array of offset 0 holding only the runs it uses
/// (VisibleRunEnds, and the matching slice of the values child).
Result<std::shared_ptr<ArrayData>> CompactRuns(const ArrayData& data);

}  // namespace recflow
