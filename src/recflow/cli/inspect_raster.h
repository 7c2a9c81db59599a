// `recflow inspect` on rasters: GDAL datasets (GeoTIFF files, /vsicurl/ and other GDAL paths) described instead of read as records.
#pragma once

#include <string>
#include <vector>

#include "recflow/cli/stdout_writer.h"
#include "recflow/core/result.h"
#include "recflow/raster/gdal_env.h"

namespace recflow::cli {

/// True when every input is a raster: a GDAL virtual path (/vsicurl/, /vsis3/, ...) or a file
/// whose content sniffs as TIFF (which recflow's record formats refuse).
Result<bool> AllRasters(const std::vector<std::string>& inputs);

/// Describes each raster (raster::DescribeRaster with the GDAL options `config`: driver, layout,
/// size, CRS, geotransform, and per band its type, nodata, block size, overviews and exact
/// statistics) as text or JSON to `out`; for a remote one also its endpoint and where its
/// credentials come from (raster::ResolveRemoteAccess: the key id, never the secret).
Status InspectRasters(const std::vector<std::string>& inputs, const raster::GdalConfig& config, bool json,
                      StdoutWriter* out);

}  // namespace recflow::cli
