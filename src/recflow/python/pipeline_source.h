// PipelineSource: what recflow.run, recflow.Pipeline and recflow.dask.run load a pipeline from — a YAML file or a
// builder's text — and the one loader they share.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/pipeline/step_registry.h"
#include "recflow/pipeline/yaml_pipeline.h"

namespace recflow::python {

/// `--set` overrides of a pipeline's parameters.
using PipelineParams = std::vector<std::pair<std::string, std::string>>;

/// What a pipeline is loaded from.
struct PipelineSource {
  std::string path;      ///< a YAML file, or the name messages give `text`
  std::string text;      ///< a builder's YAML (JSON) text; empty: read `path`
  std::string base_dir;  ///< where `text`'s relative paths resolve
};

/// The pipeline of `source` with `params`, its steps from `registry` (the built-in steps, and the
/// Python steps of a builder's functions), built as `options` says; its build error when a step could not be built.
inline Result<pipeline::YamlPipeline> LoadPipeline(const PipelineSource& source, const PipelineParams& params,
                                                   const pipeline::StepRegistry& registry,
                                                   const pipeline::YamlLoadOptions& options = {}) {
  ASSIGN_OR_RETURN(pipeline::YamlPipeline loaded,
                   source.text.empty()
                       ? pipeline::LoadPipelineYaml(source.path, params, registry, options)
                       : pipeline::ParsePipelineYaml(source.text, source.path, source.base_dir, params, registry,
                                                     options));
  RETURN_NOT_OK(loaded.pipeline->status());
  return loaded;
}

}  // namespace recflow::python
