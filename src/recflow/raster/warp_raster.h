// Warping rasters: a RasterRef's bands reprojected and resampled onto another grid as warped VRTs GDAL reads tile by tile.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "recflow/core/result.h"
#include "recflow/raster/gdal_env.h"
#include "recflow/raster/raster_ref.h"

namespace recflow::raster {

/// A grid to warp onto: `width` × `height` pixels in `crs` placed by the north-up `transform`.
struct TargetGrid {
  std::string crs;
  std::array<double, 6> transform{0, 1, 0, 0, 0, -1};
  int64_t width = 0;
  int64_t height = 0;
};

/// How warp resamples.
enum class Resampling : uint8_t { kNearest, kBilinear, kCubic, kAverage };

/// The resampling `name` names (nearest, bilinear, cubic, average); InvalidArgument otherwise.
Result<Resampling> ParseResampling(const std::string& name);

/// The target of a warp, as gdalwarp's options: a CRS (-t_srs; the source's when empty), a
/// resolution (-tr), an extent in the target CRS (-te), or a whole grid (`like`: -t_srs, -te, -ts).
struct WarpOptions {
  std::string crs;  ///< "EPSG:32629", WKT, or anything GDAL's SetFromUserInput takes
  std::optional<std::array<double, 2>> resolution;  ///< x, y pixel size in the target CRS
  std::optional<std::array<double, 4>> extent;      ///< min x, min y, max x, max y in the target CRS
  std::optional<TargetGrid> like;                   ///< excludes crs, resolution and extent
  Resampling resampling = Resampling::kNearest;
  /// The output's nodata DN for a band whose source declares none (pixels outside the source);
  /// without it they are 0, as gdalwarp makes them.
  std::optional<double> nodata;
  /// gdalwarp's -et: the largest error in source pixels of its approximate transformation. 0 (the
  /// default) transforms every pixel exactly, so the result does not depend on how the grid is cut
  /// into blocks (gdalwarp's default 0.125 interpolates along each block's rows: nearest picks
  /// differ between a VRT's blocks and gdalwarp's chunks).
  double error_threshold = 0;
  /// Refuses target grids of more pixels than this.
  int64_t max_pixels = int64_t{1} << 36;
  /// GDAL configuration set on the thread while it warps (GdalThreadScope).
  GdalConfig config;

  /// A CRS, resolution or extent is given (what `like` excludes).
  bool HasTarget() const { return !crs.empty() || resolution || extent; }
  /// InvalidArgument for a CRS GDAL does not understand, a non-positive resolution, an empty
  /// extent, `like` with another target option, a rotated or empty `like` grid. Uses GDAL: outside
  /// the raster plugin, call RasterApi::check_warp_options.
  Status Validate() const;
};

/// The grid WarpRaster(ref, options) puts `ref` on, computed without making the warped bands (no
/// dataset opened, nothing read). In the raster plugin.
Result<TargetGrid> WarpGrid(const RasterRef& ref, const WarpOptions& options);

/// `ref` warped: the target grid as gdalwarp computes it from the options and `ref`'s grid (its
/// window's footprint when no extent is given), and each band a warped VRT (GDAL's XML as the
/// band's dataset) of its source dataset in the source's data type: DN resampled, nodata DN
/// carried from the source (left out of the resampling) and set where the source does not reach,
/// scale, offset, `ref`'s expression and configuration name kept. No pixels are read: GDAL's
/// warper runs when a tile of the result is read, per block of the VRT. Errors name the dataset.
/// In the raster plugin (RasterApi::warp_raster).
Result<RasterRef> WarpRaster(const RasterRef& ref, const WarpOptions& options);

}  // namespace recflow::raster
