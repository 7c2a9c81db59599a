// LoadPipelineFile: --set items (SplitKeyValues) handed to LoadPipelineYaml with the built-in steps.
#include "recflow/cli/pipeline_file.h"

#include "recflow/cli/key_values.h"
#include "recflow/pipeline/step_registry.h"

namespace recflow::cli {

Result<pipeline::YamlPipeline> LoadPipelineFile(const std::string& path, const std::vector<std::string>& set,
                                                const pipeline::YamlLoadOptions& options) {
  ASSIGN_OR_RETURN(auto overrides, SplitKeyValues("--set", set));
  return pipeline::LoadPipelineYaml(path, overrides, pipeline::BuiltinSteps(), options);
}

bool IsPipelineFile(const std::string& path) { return path.ends_with(".yaml") || path.ends_with(".yml"); }

}  // namespace recflow::cli
