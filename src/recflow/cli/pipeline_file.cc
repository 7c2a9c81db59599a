// LoadPipelineFile: --set items (SplitKeyValues) handed to LoadPipelineYaml with the command's steps.
#include "recflow/cli/pipeline_file.h"

#include "recflow/cli/key_values.h"
#include "recflow/connectors/nats/nats_steps.h"

namespace recflow::cli {

pipeline::StepRegistry CommandSteps() {
  pipeline::StepRegistry registry = pipeline::BuiltinSteps();
  nats::AddNatsSteps(&registry);
  return registry;
}

Result<pipeline::YamlPipeline> LoadPipelineFile(const std::string& path, const std::vector<std::string>& set,
                                                const pipeline::YamlLoadOptions& options) {
  ASSIGN_OR_RETURN(auto overrides, SplitKeyValues("--set", set));
  return pipeline::LoadPipelineYaml(path, overrides, CommandSteps(), options);
}

bool IsPipelineFile(const std::string& path) { return path.ends_with(".yaml") || path.ends_with(".yml"); }

}  // namespace recflow::cli
