// Opening rasters: GDAL datasets' bands checked and described as a RasterRef (grid, CRS, window, overview, DN scaling), no pixels read.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/raster/gdal_env.h"
#include "recflow/raster/raster_ref.h"

namespace recflow::raster {

/// Which band of which dataset, and how its DN become values.
struct BandSource {
  std::string name;     ///< the band's name in expressions
  std::string dataset;  ///< a GDAL dataset name
  /// 1-based index, or (when `description` is set) 0 and the band is found by its description.
  int band = 1;
  std::string description;
  double scale = 1.0;
  double offset = 0.0;
  /// Replaces the file's nodata value when set.
  std::optional<double> nodata;
  /// Sentinel-2 L2A: when the dataset's metadata gives a PROCESSING_BASELINE of 04.00 or later,
  /// BOA_ADD_OFFSET (from the metadata, else −1000) is added to each DN before scaling.
  bool sentinel2_boa_offset = false;
};

/// What part of the bands to read: all of them, a pixel window or a bounding box, at full
/// resolution or an overview.
struct OpenOptions {
  std::vector<BandSource> bands;
  /// The band (index into `bands`) whose grid every band must share; 0 by default.
  int grid_band = 0;
  /// Overview level (0 = the first overview), -1 for full resolution.
  int overview = -1;
  /// Pixel window x, y, width, height in the chosen level's pixels.
  std::optional<std::array<int64_t, 4>> window;
  /// Bounding box min x, min y, max x, max y in the grid's CRS: the pixels it touches.
  std::optional<std::array<double, 4>> bbox;
  /// A raster without a CRS is refused unless this is set.
  bool allow_missing_crs = false;
  /// Refuses grids of more pixels than this (a header can declare any size); at most 2^36, what a
  /// raster value may describe (RasterRef::FromJson).
  int64_t max_pixels = int64_t{1} << 36;
  /// GDAL configuration set on the opening thread while it opens (see GdalThreadScope).
  GdalConfig config;

  /// InvalidArgument for no bands, a grid band out of range, both a window and a bbox.
  Status Validate() const;
};

/// Opens every band's dataset, checks it (band exists, same size, geotransform and CRS as the grid
/// band, the window inside it, a readable data type), and describes the result. Errors name the
/// dataset and the band.
Result<RasterRef> OpenRaster(const OpenOptions& options);

}  // namespace recflow::raster
