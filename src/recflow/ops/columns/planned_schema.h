// CheckPlannedSchema: the error of an op resolved against one schema and handed a batch of another.
#pragma once

#include <string_view>

#include "recflow/columnar/schema.h"
#include "recflow/core/result.h"

namespace recflow::ops {

/// OK when `actual` (a batch's schema) has the fields of `planned` (the schema an op resolved
/// its columns against) in the same order; otherwise an InvalidArgument naming `op` and both
/// schemas' fields.
Status CheckPlannedSchema(const Schema& planned, const Schema& actual, std::string_view op);

}  // namespace recflow::ops
