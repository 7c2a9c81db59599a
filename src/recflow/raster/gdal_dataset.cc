// OpenDataset and Wkt2Of: GDAL's open flags and WKT export options in one place.
#include "recflow/raster/gdal_dataset.h"

#include <cpl_conv.h>
#include <ogr_spatialref.h>

#include "recflow/raster/gdal_env.h"

namespace recflow::raster {

Result<std::unique_ptr<GDALDataset>> OpenDataset(const std::string& name) {
  std::unique_ptr<GDALDataset> ds(
      GDALDataset::Open(name.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR));
  if (ds == nullptr) return GdalError(name, "cannot open as a raster");
  return ds;
}

std::string Wkt2Of(const OGRSpatialReference& srs) {
  char* wkt = nullptr;
  const char* options[] = {"FORMAT=WKT2_2019", nullptr};
  srs.exportToWkt(&wkt, options);
  std::string text = wkt != nullptr ? wkt : "";
  CPLFree(wkt);
  return text;
}

}  // namespace recflow::raster
