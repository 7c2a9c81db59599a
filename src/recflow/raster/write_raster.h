// Writing rasters: a RasterRef's values as a float32 GeoTIFF or Cloud-Optimized GeoTIFF, georeferenced, into a local file.
#pragma once

#include <cstdint>
#include <string>

#include "recflow/core/result.h"
#include "recflow/core/stop_token.h"
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
  int threads = 1;                   ///< GDAL's threads (NUM_THREADS) for overviews and the COG translation
  GdalConfig config;
  StopToken stop_token;  ///< checked before each tile: a stop ends the write (Cancelled) between tiles

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

/// The uncompressed tiled GeoTIFF WriteRaster writes first when writing a COG at `path`.
inline std::string CogTilesPath(const std::string& path) { return path + ".recflow-tiles.tif"; }

/// Computes `ref` tile by tile on the calling arena's threads (EvaluateTilesInOrder over the
/// file's `block_size` tiles), each tile compressed on its worker (TileEncoder) and written raw
/// in tile order, and writes it to `path` as float32 with NaN as nodata, `ref`'s CRS and
/// geotransform: the same bytes whatever the thread count. GDAL creates `path`
/// itself, so it is a local file (or a GDAL virtual path): a caller publishing it atomically
/// passes a staged name and commits it (pipeline::RunFiles). A COG is first written as an
/// uncompressed tiled GeoTIFF at CogTilesPath(path), always removed before this returns (a caller
/// registers it with the termination handler: pipeline::RunFiles::RegisterScratch); on failure (a stop included) `path` is removed too.
Result<WriteStats> WriteRaster(const RasterRef& ref, const std::string& path, const WriteOptions& options);

}  // namespace recflow::raster
