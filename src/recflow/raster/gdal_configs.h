// GDAL configurations kept by name in the process: a raster carries the name of the one its bands are read with, never the values.
#pragma once

#include <string>

#include "recflow/core/result.h"
#include "recflow/raster/gdal_env.h"

namespace recflow::raster {

/// Keeps `config` for the life of the process and returns its name (unique to this process, as
/// "gdal-config-<process nonce>-<n>"): read_raster keeps its `config` once and sets the name as
/// its rasters' RasterRef::config, so that every later step reading their bands (write_raster)
/// sets the same options while credentials never appear in a row. Thread-safe.
std::string KeepGdalConfig(GdalConfig config);

/// The configuration KeepGdalConfig named `name`; DataError when this process kept none by that
/// name (a raster written out and read back in another process carries no configuration).
Result<GdalConfig> FindGdalConfig(const std::string& name);

}  // namespace recflow::raster
