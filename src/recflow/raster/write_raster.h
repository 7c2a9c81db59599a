// Writing rasters: a RasterRef's values as a float32 GeoTIFF or Cloud-Optimized GeoTIFF, georeferenced, published by one rename.
#pragma once

#include <cstdint>
#include <string>

#include "recflow/core/result.h"
#include "recflow/raster/gdal_env.h"
#include "recflow/raster/raster_ref.h"

namespace recflow::raster {

/// How write_raster writes.
struct WriteOptions {
  enum class Layout : uint8_t {
    kGeoTiff,  ///< a tiled GeoTIFF
    kCog,      ///< a Cloud-Optimized GeoTIFF (GDAL's COG driver: tiles, overviews before the data)
  };
  Layout layout = Layout::kCog;
  std::string compress = "DEFLATE";  ///< DEFLATE, ZSTD, LZW or NONE
  int block_size = 512;              ///< tile edge in pixels (a multiple of 16)
  bool overviews = true;             ///< overviews down to one tile (averages; nodata left out)
  int threads = 1;                   ///< GDAL's compression threads (NUM_THREADS)
  GdalConfig config;

  static WriteOptions Defaults() { return {}; }
  /// InvalidArgument for an unknown compression or a bad block size.
  Status Validate() const;
};

/// What was written: the valid (non-NaN) values over all bands and their range and mean.
struct WriteStats {
  int64_t valid_count = 0;
  double min = 0;  ///< NaN when nothing is valid
  double max = 0;
  double mean = 0;
};

/// Computes `ref` tile by tile on the calling arena's threads (EvaluateTiles) and writes it to
/// `path` (a local file) as float32 with NaN as nodata, `ref`'s CRS and geotransform. The file
/// is made under a staged name beside `path` and renamed over it only once complete, so `path`
/// is either the old file or the whole new one; on failure nothing is left.
Result<WriteStats> WriteRaster(const RasterRef& ref, const std::string& path, const WriteOptions& options);

/// Where WriteRaster makes `path` before the rename.
inline std::string StagedRasterPath(const std::string& path) { return path + ".recflow-staged"; }

}  // namespace recflow::raster
