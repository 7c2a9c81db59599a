// GDAL set-up for recflow: drivers registered once, quiet errors turned into Status, configuration options scoped to a thread.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "recflow/core/status.h"

namespace recflow::raster {

/// GDAL configuration options (endpoint, credentials, HTTP settings) as key/value pairs.
using GdalConfig = std::vector<std::pair<std::string, std::string>>;

/// GDAL's block cache unless GDAL_CACHEMAX says otherwise: 128 MiB.
inline constexpr int64_t kGdalCacheBytes = int64_t{128} << 20;

/// Registers GDAL's drivers and the mosaic pick pixel function (RegisterMosaicPick) once per
/// process, sets GDAL_DISABLE_READDIR_ON_OPEN=EMPTY_DIR (no directory listing per open, which on
/// /vsicurl/ and /vsis3/ is one request per file) and the block cache to kGdalCacheBytes, each
/// unless the environment sets it. Safe to call from any thread, any number of times.
void InitGdal();

/// While alive, GDAL errors raised on this thread are kept quiet (not printed) and `config` is set
/// as thread-local GDAL configuration (CPLSetThreadLocalConfigOption): nothing is written to disk
/// and other threads are unaffected. Restores the previous values when destroyed.
class GdalThreadScope {
 public:
  explicit GdalThreadScope(const GdalConfig& config = {});
  ~GdalThreadScope();
  GdalThreadScope(const GdalThreadScope&) = delete;
  GdalThreadScope& operator=(const GdalThreadScope&) = delete;

 private:
  std::vector<std::pair<std::string, std::string>> previous_;
  std::vector<bool> had_previous_;
};

/// `what` failed on `file`: an IOError whose message ends with GDAL's last error on this thread
/// (which is then reset), located at `file`.
Status GdalError(const std::string& file, const std::string& what);

}  // namespace recflow::raster
