// The raster plugin: the GDAL half of recflow's rasters (open, write, describe, warp, mosaic, statistics, chips), a shared library loaded on first use so that nothing else maps GDAL.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/core/stop_token.h"
#include "recflow/raster/chips.h"
#include "recflow/raster/describe_raster.h"
#include "recflow/raster/mosaic_raster.h"
#include "recflow/raster/open_raster.h"
#include "recflow/raster/raster_stats.h"
#include "recflow/raster/warp_raster.h"
#include "recflow/raster/write_raster.h"

namespace recflow::raster {

/// The plugin's file name, looked for in the directory of the binary or extension module that
/// holds recflow's code (the `recflow` executable's, the Python extension's).
inline constexpr const char* kRasterPluginName = "librecflow_gdal.so";

/// What the plugin's entry point checks, so that a plugin from another build is refused.
inline constexpr int kRasterApiVersion = 3;

/// The plugin's functions: OpenRaster, WriteRaster, DescribeRaster, WarpOptions::Validate,
/// WarpRaster, MosaicRasters, ComputeRasterStats and ReadChips as they are declared beside their
/// options, run inside the plugin (which links GDAL).
struct RasterApi {
  Result<RasterRef> (*open_raster)(const OpenOptions& options);
  Result<WriteStats> (*write_raster)(const RasterRef& ref, const std::string& path, const WriteOptions& options);
  Result<RasterDescription> (*describe_raster)(const std::string& dataset, const GdalConfig& config);
  Status (*check_warp_options)(const WarpOptions& options);
  Result<RasterRef> (*warp_raster)(const RasterRef& ref, const WarpOptions& options);
  Result<RasterRef> (*mosaic_rasters)(std::span<const RasterRef> rasters, const MosaicOptions& options);
  Result<std::vector<ValueStats>> (*compute_raster_stats)(const RasterRef& ref, const GdalConfig& config,
                                                          const StopToken& stop);
  Status (*read_chips)(const RasterRef& ref, std::span<const TileRect> rects, const GdalConfig& config,
                       const StopToken& stop, const ChipConsumer& consume);
};

/// The plugin's functions, loaded (dlopen) on the first call; every later call returns the
/// same table. IOError naming the library's path (in the message) and the loader's message when
/// it is missing or cannot be loaded, or when it is from another build. Thread-safe.
Result<const RasterApi*> RasterPlugin();

}  // namespace recflow::raster
