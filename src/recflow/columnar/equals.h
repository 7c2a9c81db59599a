// Logical equality of arrays: respects offsets and nulls, ignores the bytes behind nulls.
#pragma once

#include "recflow/columnar/array_data.h"

namespace recflow {

/// True when a and b have equal types, lengths and null positions and equal values at every
/// valid position (buffers, offsets and slicing may differ). Floats are equal when their bits
/// are equal or both are NaN (so NaN == NaN, and 0.0 != -0.0).
bool ArrayEquals(const ArrayData& a, const ArrayData& b);

}  // namespace recflow
