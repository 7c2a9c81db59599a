// KeepGdalConfig / FindGdalConfig: a mutex-guarded list of configurations, named with a per-process random nonce.
#include "recflow/raster/gdal_configs.h"

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

}  // namespace recflow::raster
