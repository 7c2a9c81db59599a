// The built-in step families, each registered by its own file.
#pragma once

#include "recflow/pipeline/step_registry.h"

namespace recflow::pipeline {

/// read, write.
void AddIoSteps(StepRegistry* registry);
/// select, drop, rename, cast, filter, fill_null, standard_scale, min_max_scale, vocabulary, one_hot, hash_bucket.
void AddColumnSteps(StepRegistry* registry);
/// load_file, decode_image, resize, center_crop, random_crop, random_flip, normalize, convert_channels, encode_image.
void AddImageSteps(StepRegistry* registry);
/// read_idx, text_template, write_files.
void AddFileSteps(StepRegistry* registry);
/// to_example.
void AddExampleSteps(StepRegistry* registry);
/// flatten, group_by_key, combine_per_key, combine_globally.
void AddGroupingSteps(StepRegistry* registry);

}  // namespace recflow::pipeline
