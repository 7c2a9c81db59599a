// DescribeRaster: what `recflow inspect` reports of a GDAL dataset — grid, CRS, bands, block size, overviews and exact band statistics.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/raster/gdal_env.h"

namespace recflow::raster {

/// One band of a described raster.
struct BandDescription {
  int index = 1;                 ///< 1-based
  std::string type;              ///< GDAL's name ("UInt16")
  std::string description;
  std::optional<double> nodata;
  int block_width = 0;
  int block_height = 0;
  std::vector<std::pair<int, int>> overviews;  ///< width, height of each overview level
  /// Exact statistics over the values that are not nodata (or NaN); min, max, mean and std
  /// are NaN when none is valid.
  int64_t valid_count = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  double std = 0;
};

/// A described raster.
struct RasterDescription {
  std::string dataset;
  std::string driver;   ///< GDAL's short name ("GTiff")
  std::string layout;   ///< IMAGE_STRUCTURE LAYOUT ("COG"), empty when GDAL gives none
  std::string compression;
  int64_t width = 0;
  int64_t height = 0;
  std::string crs_wkt;  ///< empty without a CRS
  std::string crs_name; ///< "WGS 84 / UTM zone 29N"
  std::string crs_id;   ///< "EPSG:32629" when it has an authority code
  std::optional<std::array<double, 6>> transform;
  std::vector<BandDescription> bands;
};

/// Opens `dataset` (any GDAL dataset name, with `config` set on this thread while it works) and
/// describes it, reading every block once for the statistics (through GDAL's block cache: memory
/// stays bounded). Errors name the dataset and, for a block that cannot be read, the band.
Result<RasterDescription> DescribeRaster(const std::string& dataset, const GdalConfig& config = {});

/// True when `name` is one GDAL opens but recflow's record formats do not: a GDAL virtual file
/// system path (/vsicurl/, /vsis3/, /vsizip/, ...).
inline bool IsGdalVirtualPath(const std::string& name) { return name.rfind("/vsi", 0) == 0; }

}  // namespace recflow::raster
