// Raster statistics: each output band's valid count, min, max, mean and std over the whole grid, computed tile by tile on every thread.
#pragma once

#include <vector>

#include "recflow/core/result.h"
#include "recflow/core/stop_token.h"
#include "recflow/raster/gdal_env.h"
#include "recflow/raster/raster_ref.h"
#include "recflow/raster/value_stats.h"

namespace recflow::raster {

/// The statistics of each of `ref`'s output bands (its bands, or its one computed band) over its
/// values (DN × scale + offset; nodata and NaN left out), exact: each tile's own statistics
/// (EvaluateTiles, on the calling arena's threads) merged in tile order, so the result does not
/// depend on the thread count. Errors name the dataset; Cancelled once `stop` is requested. In the
/// raster plugin (RasterApi::compute_raster_stats).
Result<std::vector<ValueStats>> ComputeRasterStats(const RasterRef& ref, const GdalConfig& config,
                                                   const StopToken& stop);

}  // namespace recflow::raster
