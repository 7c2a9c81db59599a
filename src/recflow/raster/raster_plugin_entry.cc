// The raster plugin's one exported symbol: the table of its GDAL functions for RasterPlugin().
#include "recflow/raster/raster_plugin.h"

namespace {

recflow::Status CheckWarpOptions(const recflow::raster::WarpOptions& options) { return options.Validate(); }

const recflow::raster::RasterApi kApi{
    &recflow::raster::OpenRaster,
    &recflow::raster::WriteRaster,
    &recflow::raster::DescribeRaster,
    &CheckWarpOptions,
    &recflow::raster::WarpRaster,
    &recflow::raster::MosaicRasters,
    &recflow::raster::ComputeRasterStats,
    &recflow::raster::ReadChips,
};

}  // namespace

/// The plugin's functions when `version` is the one this build speaks (kRasterApiVersion), else null.
extern "C" __attribute__((visibility("default"))) const recflow::raster::RasterApi* recflow_raster_api(int version) {
  return version == recflow::raster::kRasterApiVersion ? &kApi : nullptr;
}
