// Mosaics: several rasters merged onto one grid as VRTs whose sources are painted in order or picked per pixel, nodata never winning.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "recflow/core/result.h"
#include "recflow/raster/gdal_env.h"
#include "recflow/raster/raster_ref.h"
#include "recflow/raster/warp_raster.h"

namespace recflow::raster {

/// Which raster's value a pixel covered by several takes.
enum class MosaicRule : uint8_t {
  kFirst,    ///< the first raster (in input order) valid there
  kLast,     ///< the last raster valid there
  kMax,      ///< per band, the largest value there (computed rasters: every band of the one whose value is)
  kMin,      ///< per band, the smallest value there (computed rasters: every band of the one whose value is)
  kMaxNdvi,  ///< every band of the raster whose NDVI (MosaicOptions::red and nir) is largest there
};

/// The rule `name` names (first, last, max, min, max_ndvi); InvalidArgument otherwise.
Result<MosaicRule> ParseMosaicRule(const std::string& name);

/// How mosaic merges.
struct MosaicOptions {
  MosaicRule rule = MosaicRule::kFirst;
  /// The band names max_ndvi computes NDVI from.
  std::string red = "red";
  std::string nir = "nir";
  /// How a raster off the common grid (another CRS, pixel size, a fraction of a pixel away, an
  /// overview) is warped onto it: resampling, error_threshold, config; `nodata` is also the
  /// mosaic's nodata DN for a band whose first raster declares none, `max_pixels` also bounds the
  /// mosaic. Its target (crs, resolution, extent, like) is mosaic's to set.
  WarpOptions warp;
};

/// `rasters` merged: the grid is the first raster's CRS and pixel size, its alignment, over the
/// union of every raster's footprint; each output band a VRT (GDAL's XML as its dataset) whose
/// sources are that band of every raster — in place when it lies on the grid, else warped onto
/// the part of the grid it covers (WarpRaster) — painted in the rule's order (first, last), each
/// source's nodata left unpainted, or, for max, min and max_ndvi, a derived band whose pixel
/// function (kMosaicPickFunction) takes per pixel the raster whose key wins, the key bands' sources
/// beside each raster's; a valid value always wins over nodata; the first raster's configuration
/// name kept (the mosaic step sets there the merge of every raster's, MergeGdalConfigs, which
/// `options.warp.config` then holds). The rasters must have the same band names, stored types, scales, offsets and expression,
/// and north-up grids; errors name the dataset of the raster at fault and its position. In the
/// raster plugin (RasterApi::mosaic_rasters).
Result<RasterRef> MosaicRasters(std::span<const RasterRef> rasters, const MosaicOptions& options);

}  // namespace recflow::raster
