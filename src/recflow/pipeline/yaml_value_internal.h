// YamlValue: the yaml-cpp node behind StepArgs and the pipeline loader (yaml-cpp throws; callers catch).
#pragma once

#include <yaml-cpp/yaml.h>

#include "recflow/pipeline/step_args.h"

namespace recflow::pipeline {

/// A parsed YAML node.
struct YamlValue {
  YAML::Node node;
};

/// Where `node` starts in `file`.
inline YamlLocation LocationOf(const std::string& file, const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  return YamlLocation{file, mark.line + 1, mark.column + 1};
}

}  // namespace recflow::pipeline
