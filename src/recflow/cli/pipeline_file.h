// LoadPipelineFile: a YAML pipeline with --set KEY=VALUE overrides, as `recflow run`, `plan` and `serve` load it.
#pragma once

#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/pipeline/step_registry.h"
#include "recflow/pipeline/yaml_pipeline.h"

namespace recflow::cli {

/// The steps pipeline files of the command use: the built-in ones and the connectors' (nats,
/// write_nats).
pipeline::StepRegistry CommandSteps();

/// Loads the pipeline file at `path` with CommandSteps(), after the parameter overrides of
/// `set` (each KEY=VALUE; InvalidArgument for any other form).
Result<pipeline::YamlPipeline> LoadPipelineFile(const std::string& path, const std::vector<std::string>& set,
                                                const pipeline::YamlLoadOptions& options = {});

/// True when `path` names a pipeline file (ends in .yaml or .yml).
bool IsPipelineFile(const std::string& path);

}  // namespace recflow::cli
