// Validation of ArrayData against the Arrow layout rules; safe on hostile (imported) data.
#pragma once

#include "recflow/columnar/array_data.h"
#include "recflow/core/status.h"

namespace recflow {

/// Checks the structure in O(1) per array (plus children): buffer count and sizes against
/// length + offset, child count and lengths, first/last offsets of binary and list arrays.
/// Returns a DataError describing the first problem.
Status Validate(const ArrayData& data);

/// Validate() plus every value: offsets non-decreasing and within the data / child bounds,
/// null_count equal to the bitmap's count of zero bits, utf8 values valid UTF-8, recursively.
/// Never reads outside the buffers, whatever the ArrayData claims.
Status ValidateFull(const ArrayData& data);

}  // namespace recflow
