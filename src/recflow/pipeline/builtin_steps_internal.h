// The built-in step families, each registered by its own file.
#pragma once

#include "recflow/pipeline/step_registry.h"

namespace recflow::pipeline {

/// read, write.
void AddIoSteps(StepRegistry* registry);
/// flatten, group_by_key, combine_per_key, combine_globally.
void AddGroupingSteps(StepRegistry* registry);

}  // namespace recflow::pipeline
