// KeepGdalConfig / FindGdalConfig / MergeGdalConfigs: a mutex-guarded list of configurations, named with a per-process random nonce.
#include "recflow/raster/gdal_configs.h"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <random>

#include <fmt/format.h>

namespace recflow::raster {
namespace {

struct Kept {
  std::mutex mutex;
  std::deque<GdalConfig> configs;
  // Names from another process (a row read back) do not match this one's.
  const std::string prefix = [] {
    std::random_device random;
    return fmt::format("gdal-config-{:08x}{:08x}-", random(), random());
  }();
};

Kept& TheKept() {
  static Kept kept;
  return kept;
}

}  // namespace

std::string KeepGdalConfig(GdalConfig config) {
  Kept& kept = TheKept();
  std::lock_guard lock(kept.mutex);
  const auto same = std::find(kept.configs.begin(), kept.configs.end(), config);
  if (same != kept.configs.end()) return kept.prefix + std::to_string(same - kept.configs.begin());
  kept.configs.push_back(std::move(config));
  return kept.prefix + std::to_string(kept.configs.size() - 1);
}

Result<GdalConfig> FindGdalConfig(const std::string& name) {
  Kept& kept = TheKept();
  std::lock_guard lock(kept.mutex);
  if (name.rfind(kept.prefix, 0) == 0) {
    const std::string index = name.substr(kept.prefix.size());
    char* end = nullptr;
    const unsigned long long i = std::strtoull(index.c_str(), &end, 10);
    if (!index.empty() && *end == '\0' && i < kept.configs.size()) return kept.configs[i];
  }
  return Status::DataError("the raster names GDAL configuration '" + name +
                           "', which this process does not have (a raster read in another process carries no "
                           "configuration: give the step its config)");
}

Result<std::string> MergeGdalConfigs(const std::vector<std::string>& names) {
  std::string common;
  bool one = true;
  for (const std::string& name : names) {
    if (name.empty()) continue;
    if (common.empty()) common = name;
    one = one && name == common;
  }
  if (one) return common;
  GdalConfig merged;
  std::vector<size_t> set_by;  // the position in `names` whose configuration set merged[k]
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) continue;
    ASSIGN_OR_RETURN(const GdalConfig config, FindGdalConfig(names[i]));
    for (const auto& [key, value] : config) {
      const auto at = std::find_if(merged.begin(), merged.end(), [&](const auto& kv) { return kv.first == key; });
      if (at == merged.end()) {
        merged.emplace_back(key, value);
        set_by.push_back(i);
      } else if (at->second != value) {
        return Status::DataError(fmt::format("the GDAL configurations of rasters {} and {} set {} to different values: "
                                             "rasters read together are read with one configuration",
                                             set_by[static_cast<size_t>(at - merged.begin())], i, key));
      }
    }
  }
  return KeepGdalConfig(std::move(merged));
}

}  // namespace recflow::raster
