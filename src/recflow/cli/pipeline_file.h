// LoadPipelineFile: a YAML pipeline with --set KEY=VALUE overrides, as `recflow run`, `plan` and `serve` load it.
#pragma once

#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/pipeline/yaml_pipeline.h"

namespace recflow::cli {

/// Loads the pipeline file at `path` with the built-in steps, after the parameter overrides of
/// `set` (each KEY=VALUE; InvalidArgument for any other form).
Result<pipeline::YamlPipeline> LoadPipelineFile(const std::string& path, const std::vector<std::string>& set,
                                                const pipeline::YamlLoadOptions& options = {});

/// True when `path` names a pipeline file (ends in .yaml or .yml).
bool IsPipelineFile(const std::string& path);

}  // namespace recflow::cli
