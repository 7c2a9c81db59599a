// Opening GDAL datasets and writing CRSs as WKT, as every raster function does (GDAL side only).
#pragma once

#include <memory>
#include <string>

#include <gdal_priv.h>

#include "recflow/core/result.h"

class OGRSpatialReference;

namespace recflow::raster {

/// Opens the GDAL dataset `name` read-only as a raster (call inside a GdalThreadScope); IOError
/// located at `name` with GDAL's message when it cannot.
Result<std::unique_ptr<GDALDataset>> OpenDataset(const std::string& name);

/// `srs` as WKT2 (2019), the text a RasterRef and `recflow inspect` carry.
std::string Wkt2Of(const OGRSpatialReference& srs);

}  // namespace recflow::raster
