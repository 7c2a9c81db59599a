// RasterRef: a raster as a row carries it — its grid, CRS and bands (where each band's pixels are and how DN become values), never its pixels.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "recflow/core/result.h"

namespace recflow::raster {

/// One band of a raster: band `band` (1-based) of GDAL dataset `dataset` at overview `overview`
/// (-1: full resolution), read from pixel (x0, y0) of that level. A pixel's value is
/// DN × scale + offset; a DN equal to `nodata` (and any NaN) is NaN.
struct BandRef {
  std::string name;                ///< the band's name in expressions ("red")
  std::string dataset;             ///< a GDAL dataset name (a path, /vsicurl/..., /vsis3/...)
  int band = 1;                    ///< 1-based band index in `dataset`
  int overview = -1;               ///< overview level, -1 for full resolution
  std::string type;                ///< GDAL's name of the stored type ("UInt16")
  double scale = 1.0;
  double offset = 0.0;
  std::optional<double> nodata;
  int64_t x0 = 0;                  ///< the window's first column in the level
  int64_t y0 = 0;                  ///< the window's first row in the level
  int block_width = 0;             ///< the file's internal block (tile or strip) size at that level
  int block_height = 0;
};

/// A raster value: a `width` × `height` grid in `crs` (WKT) placed by `transform` (GDAL's
/// geotransform: x0, dx, rx, y0, ry, dy), its bands, and, when `expression` is set, the one
/// float band computed from them by that band_math expression. Values are float64 while
/// computed and float32 when written; nodata is NaN.
struct RasterRef {
  int64_t width = 0;
  int64_t height = 0;
  std::string crs;
  std::array<double, 6> transform{0, 1, 0, 0, 0, 1};
  std::vector<BandRef> bands;
  std::string expression;
  /// The name of the GDAL configuration its bands are read with (read_raster's `config`, kept in
  /// this process by KeepGdalConfig: the values, credentials among them, are never in the row),
  /// empty for none.
  std::string config;

  /// The number of bands a reader of this raster gets: 1 with an expression, else bands.size().
  int output_bands() const { return expression.empty() ? static_cast<int>(bands.size()) : 1; }
  /// The JSON text a raster column holds.
  std::string ToJson() const;
  /// Parses ToJson()'s text; DataError naming what is wrong for anything else.
  static Result<RasterRef> FromJson(std::string_view json);
};

}  // namespace recflow::raster
