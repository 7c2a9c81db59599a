// Human-readable rendering of arrays, for test failure messages and debugging.
#pragma once

#include <string>

#include "recflow/columnar/array_data.h"

namespace recflow {

/// "[1, null, 3]", "[\"a\", null]", "[[1, 2], [], null]", "[{a: 1, b: \"x\"}, null]".
/// Binary values print as hex escapes where not printable ASCII. Long arrays are elided
/// after `max_elements` elements per level.
std::string ArrayToString(const ArrayData& data, int64_t max_elements = 100);

}  // namespace recflow
