// LoadPipelineFile: --set items split at their first '=' and handed to LoadPipelineYaml with the command's steps.
#include "recflow/cli/pipeline_file.h"

#include "recflow/connectors/nats/nats_steps.h"

namespace recflow::cli {

pipeline::StepRegistry CommandSteps() {
  pipeline::StepRegistry registry = pipeline::BuiltinSteps();
  nats::AddNatsSteps(&registry);
  return registry;
}

Result<pipeline::YamlPipeline> LoadPipelineFile(const std::string& path, const std::vector<std::string>& set,
                                                const pipeline::YamlLoadOptions& options) {
  std::vector<std::pair<std::string, std::string>> overrides;
  for (const std::string& item : set) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) return Status::InvalidArgument("--set " + item + ": expected KEY=VALUE");
    overrides.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return pipeline::LoadPipelineYaml(path, overrides, CommandSteps(), options);
}

bool IsPipelineFile(const std::string& path) { return path.ends_with(".yaml") || path.ends_with(".yml"); }

}  // namespace recflow::cli
