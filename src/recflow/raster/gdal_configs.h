// GDAL configurations kept by name in the process (and merged, for rasters read together): a raster carries the name of the one its bands are read with, never the values.
#pragma once

#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/raster/gdal_env.h"

namespace recflow::raster {

/// Keeps `config` for the life of the process and returns its name (unique to this process, as
/// "gdal-config-<process nonce>-<n>"): read_raster keeps its `config` once and sets the name as
/// its rasters' RasterRef::config, so that every later step reading their bands (write_raster)
/// sets the same options while credentials never appear in a row. A configuration equal to one
/// kept before gets that one's name (so a merge per row keeps each distinct merge once). Thread-safe.
std::string KeepGdalConfig(GdalConfig config);

/// The configuration KeepGdalConfig named `name`; DataError when this process kept none by that
/// name (a raster written out and read back in another process carries no configuration).
Result<GdalConfig> FindGdalConfig(const std::string& name);

/// The name of one configuration holding every option of the configurations `names` (of rasters
/// read together, as a mosaic's are; an empty name is none): the common name when they are all one,
/// "" when all are empty, else a kept merge. DataError naming the option and the two positions in
/// `names` when two set one option to different values (never the values: they may be secrets),
/// or FindGdalConfig's error.
Result<std::string> MergeGdalConfigs(const std::vector<std::string>& names);

}  // namespace recflow::raster
