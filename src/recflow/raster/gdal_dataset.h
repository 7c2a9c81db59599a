// Opening GDAL datasets, naming them in errors and writing CRSs as WKT, as every raster function does (GDAL side only).
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

/// The name `dataset` is known by in errors: itself, or, for a VRT recflow made (a warped or mosaic
/// band, whose dataset name is GDAL's XML), the datasets that VRT reads, in order, joined by ", ".
std::string DatasetFile(const std::string& dataset);

/// `srs` as WKT2 (2019), the text a RasterRef and `recflow inspect` carry.
std::string Wkt2Of(const OGRSpatialReference& srs);

}  // namespace recflow::raster
