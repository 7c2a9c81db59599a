// StepRegistry: lookup of step kinds, and the built-in set.
#include "recflow/pipeline/step_registry.h"

#include <filesystem>

#include "recflow/core/local_path.h"
#include "recflow/pipeline/builtin_steps_internal.h"

namespace recflow::pipeline {

Result<std::string> StepContext::Path(const std::string& text) const {
  ASSIGN_OR_RETURN(const std::string path, LocalPath(text));
  if (path.empty() || path == "-" || std::filesystem::path(path).is_absolute() || base_dir.empty()) return path;
  return (std::filesystem::path(base_dir) / path).lexically_normal().string();
}

Result<std::string> StepContext::ArgPath(std::string_view key, const std::string& value) const {
  Result<std::string> path = Path(value);
  if (!path.ok()) return args->Error(key, path.status().message());
  return path;
}

Status StepRegistry::Add(StepType type) {
  if (types_.count(type.name) != 0) return Status::InvalidArgument("a step named '" + type.name + "' is registered already");
  std::string name = type.name;
  types_.emplace(std::move(name), std::move(type));
  return Status::OK();
}

void StepRegistry::Replace(StepType type) {
  std::string name = type.name;
  types_.insert_or_assign(std::move(name), std::move(type));
}

const StepType* StepRegistry::Find(std::string_view name) const {
  auto it = types_.find(name);
  return it == types_.end() ? nullptr : &it->second;
}

std::vector<std::string> StepRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, type] : types_) out.push_back(name);
  return out;
}

StepRegistry BuiltinSteps() {
  StepRegistry registry;
  AddIoSteps(&registry);
  AddGroupingSteps(&registry);
  AddStreamingSteps(&registry);
  AddColumnSteps(&registry);
  AddImageSteps(&registry);
  AddFileSteps(&registry);
  AddExampleSteps(&registry);
  AddRasterSteps(&registry);
  AddRasterGridSteps(&registry);
  AddRasterStatsSteps(&registry);
  AddRasterChipSteps(&registry);
  return registry;
}

}  // namespace recflow::pipeline
