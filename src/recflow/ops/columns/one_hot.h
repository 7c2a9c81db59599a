// OneHot: integer ids → fixed-size float32 vectors with a 1 at the id.
#pragma once

#include <cstdint>
#include <memory>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/type.h"
#include "recflow/core/result.h"

namespace recflow::ops {

/// The type OneHot returns: fixed_size_list<item: float32>[depth].
DataTypePtr OneHotType(int32_t depth);

/// fixed_size_list<item: float32>[depth] with 1 at position id and 0 elsewhere for each id of
/// integer column `ids`; an id outside [0, depth) gives all zeros (as tf.one_hot); a null id
/// gives a null row. InvalidArgument when depth < 1, TypeError for a non-integer column.
Result<std::shared_ptr<ArrayData>> OneHot(const ArrayData& ids, int32_t depth);

}  // namespace recflow::ops
