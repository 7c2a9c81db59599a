// GDAL set-up: one-time driver (and mosaic pixel function) registration, thread-scoped quiet error handling and configuration.
#include "recflow/raster/gdal_env.h"

#include <cstdlib>
#include <mutex>

#include <cpl_conv.h>
#include <cpl_error.h>
#include <gdal.h>

#include "recflow/core/url_redaction.h"
#include "recflow/raster/mosaic_pick.h"

namespace recflow::raster {

void InitGdal() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (std::getenv("GDAL_DISABLE_READDIR_ON_OPEN") == nullptr) {
      CPLSetConfigOption("GDAL_DISABLE_READDIR_ON_OPEN", "EMPTY_DIR");
    }
    GDALAllRegister();
    RegisterMosaicPick();
    // GDAL's default block cache is 5% of RAM (1.2 GB here), all of it resident once a scene
    // has passed through; tiles are read and written once, so a small cache loses nothing.
    if (std::getenv("GDAL_CACHEMAX") == nullptr) GDALSetCacheMax64(kGdalCacheBytes);
  });
}

GdalThreadScope::GdalThreadScope(const GdalConfig& config) {
  InitGdal();
  CPLPushErrorHandler(CPLQuietErrorHandler);
  CPLErrorReset();
  for (const auto& [key, value] : config) {
    const char* old = CPLGetThreadLocalConfigOption(key.c_str(), nullptr);
    had_previous_.push_back(old != nullptr);
    previous_.emplace_back(key, old != nullptr ? old : "");
    CPLSetThreadLocalConfigOption(key.c_str(), value.c_str());
  }
}

GdalThreadScope::~GdalThreadScope() {
  for (size_t i = previous_.size(); i-- > 0;) {
    CPLSetThreadLocalConfigOption(previous_[i].first.c_str(), had_previous_[i] ? previous_[i].second.c_str() : nullptr);
  }
  CPLPopErrorHandler();
}

Status GdalError(const std::string& file, const std::string& what) {
  std::string message = what;
  const char* gdal = CPLGetLastErrorMsg();
  if (gdal != nullptr && *gdal != '\0') message += ": " + RedactUrlPasswords(gdal);
  CPLErrorReset();
  return Status::IOError(std::move(message)).WithFile(file);
}

}  // namespace recflow::raster
