// WriteRaster: tiles written to a tiled GeoTIFF (turned into a COG by GDAL's COG driver); a failure removes what it wrote.
#include "recflow/raster/write_raster.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

#include <cpl_string.h>
#include <cpl_vsi.h>
#include <fmt/format.h>
#include <gdal_priv.h>
#include <ogr_spatialref.h>

#include "recflow/raster/tiles.h"

namespace recflow::raster {
namespace {

// Closes the dataset (flushing it) and reports a failed flush.
Status Close(std::unique_ptr<GDALDataset>& ds, const std::string& path) {
  GDALDataset* raw = ds.release();
  if (raw == nullptr) return Status::OK();
  CPLErrorReset();
  GDALClose(raw);
  if (CPLGetLastErrorType() >= CE_Failure) return GdalError(path, "cannot finish writing");
  return Status::OK();
}

// Overview factors 2, 4, ... while the level is larger than one block.
std::vector<int> OverviewFactors(const RasterRef& ref, int block) {
  std::vector<int> factors;
  for (int f = 2; std::max(ref.width, ref.height) / (f / 2) > block; f *= 2) factors.push_back(f);
  return factors;
}

// Accumulates WriteStats over tiles written one at a time.
struct StatsAccumulator {
  int64_t valid = 0;
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double sum = 0;
  void Add(const double* v, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      if (std::isnan(v[i])) continue;
      const auto f = static_cast<double>(static_cast<float>(v[i]));  // the value as written
      ++valid;
      min = std::min(min, f);
      max = std::max(max, f);
      sum += f;
    }
  }
  WriteStats Result() const {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (valid == 0) return {0, nan, nan, nan};
    return {valid, min, max, sum / static_cast<double>(valid)};
  }
};

// Writes every tile of `ref` into a new tiled float32 GeoTIFF at `path`.
Result<WriteStats> WriteTiff(const RasterRef& ref, const std::string& path, const WriteOptions& options,
                             const std::string& compress) {
  GDALDriver* driver = GetGDALDriverManager()->GetDriverByName("GTiff");
  if (driver == nullptr) return Status::Internal("GDAL has no GTiff driver");
  CPLStringList create;
  create.SetNameValue("TILED", "YES");
  create.SetNameValue("BLOCKXSIZE", std::to_string(options.block_size).c_str());
  create.SetNameValue("BLOCKYSIZE", std::to_string(options.block_size).c_str());
  create.SetNameValue("COMPRESS", compress.c_str());
  if (compress != "NONE") create.SetNameValue("PREDICTOR", "3");
  create.SetNameValue("NUM_THREADS", std::to_string(std::max(1, options.threads)).c_str());
  create.SetNameValue("BIGTIFF", "IF_SAFER");
  create.SetNameValue("INTERLEAVE", "BAND");
  const int bands = ref.output_bands();
  std::unique_ptr<GDALDataset> ds(driver->Create(path.c_str(), static_cast<int>(ref.width),
                                                 static_cast<int>(ref.height), bands, GDT_Float32, create.List()));
  if (ds == nullptr) return GdalError(path, "cannot create");
  std::array<double, 6> transform = ref.transform;
  if (ds->SetGeoTransform(transform.data()) != CE_None) return GdalError(path, "cannot set the geotransform");
  if (!ref.crs.empty()) {
    OGRSpatialReference srs;
    if (srs.importFromWkt(ref.crs.c_str()) != OGRERR_NONE) {
      return Status::DataError("the raster's CRS is not WKT GDAL reads").WithFile(path);
    }
    if (ds->SetSpatialRef(&srs) != CE_None) return GdalError(path, "cannot set the CRS");
  }
  for (int b = 1; b <= bands; ++b) {
    GDALRasterBand* band = ds->GetRasterBand(b);
    band->SetNoDataValue(std::numeric_limits<double>::quiet_NaN());
    if (ref.expression.empty()) band->SetDescription(ref.bands[static_cast<size_t>(b - 1)].name.c_str());
  }
  std::mutex mutex;  // one writer at a time: the dataset is not thread-safe
  StatsAccumulator stats;
  Status st = EvaluateTiles(ref, options.config, options.stop_token, [&](const TileRect& tile, std::span<const double* const> values) {
    GdalThreadScope scope;
    std::lock_guard lock(mutex);
    for (int b = 0; b < bands; ++b) {
      const double* v = values[static_cast<size_t>(b)];
      stats.Add(v, tile.pixels());
      GDALRasterIOExtraArg extra;
      INIT_RASTERIO_EXTRA_ARG(extra);
      if (ds->GetRasterBand(b + 1)->RasterIO(GF_Write, static_cast<int>(tile.x), static_cast<int>(tile.y),
                                             static_cast<int>(tile.width), static_cast<int>(tile.height),
                                             const_cast<double*>(v), static_cast<int>(tile.width),
                                             static_cast<int>(tile.height), GDT_Float64, 0, 0, &extra) != CE_None) {
        return GdalError(path, fmt::format("cannot write band {} at pixels {},{}", b + 1, tile.x, tile.y));
      }
    }
    return Status::OK();
  });
  if (st.ok() && options.overviews && options.layout == WriteOptions::Layout::kGeoTiff) {
    const std::vector<int> factors = OverviewFactors(ref, options.block_size);
    if (!factors.empty() && ds->BuildOverviews("AVERAGE", static_cast<int>(factors.size()), factors.data(), 0,
                                               nullptr, nullptr, nullptr) != CE_None) {
      st = GdalError(path, "cannot build overviews");
    }
  }
  Status closed = Close(ds, path);
  RETURN_NOT_OK(st);
  RETURN_NOT_OK(closed);
  return stats.Result();
}

// Translates the tiled GeoTIFF `from` into a COG at `to`.
Status TranslateToCog(const std::string& from, const std::string& to, const WriteOptions& options) {
  GDALDriver* driver = GetGDALDriverManager()->GetDriverByName("COG");
  if (driver == nullptr) return Status::Internal("GDAL has no COG driver");
  std::unique_ptr<GDALDataset> source(
      GDALDataset::Open(from.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR));
  if (source == nullptr) return GdalError(from, "cannot reopen");
  CPLStringList create;
  create.SetNameValue("COMPRESS", options.compress.c_str());
  if (options.compress != "NONE") create.SetNameValue("PREDICTOR", "YES");
  create.SetNameValue("BLOCKSIZE", std::to_string(options.block_size).c_str());
  create.SetNameValue("OVERVIEWS", options.overviews ? "IGNORE_EXISTING" : "NONE");
  create.SetNameValue("OVERVIEW_RESAMPLING", "AVERAGE");
  create.SetNameValue("NUM_THREADS", std::to_string(std::max(1, options.threads)).c_str());
  create.SetNameValue("BIGTIFF", "IF_SAFER");
  std::unique_ptr<GDALDataset> out(
      driver->CreateCopy(to.c_str(), source.get(), FALSE, create.List(), nullptr, nullptr));
  if (out == nullptr) return GdalError(to, "cannot write the Cloud-Optimized GeoTIFF");
  return Close(out, to);
}

}  // namespace

Status WriteOptions::Validate() const {
  if (compress != "DEFLATE" && compress != "ZSTD" && compress != "LZW" && compress != "NONE") {
    return Status::InvalidArgument("compress must be DEFLATE, ZSTD, LZW or NONE, not '" + compress + "'");
  }
  if (block_size < 16 || block_size > 4096 || block_size % 16 != 0) {
    return Status::InvalidArgument("block_size must be a multiple of 16 in 16..4096");
  }
  return Status::OK();
}

Result<WriteStats> WriteRaster(const RasterRef& ref, const std::string& path, const WriteOptions& options) {
  RETURN_NOT_OK(options.Validate());
  if (ref.width > INT32_MAX || ref.height > INT32_MAX) {
    return Status::InvalidArgument(fmt::format("{} × {} pixels is more than GDAL writes", ref.width, ref.height))
        .WithFile(path);
  }
  GdalThreadScope scope(options.config);
  const bool cog = options.layout == WriteOptions::Layout::kCog;
  // A COG is translated from an uncompressed tiled GeoTIFF: its overviews must precede the data.
  const std::string tiff = cog ? path + ".recflow-tiles.tif" : path;
  Result<WriteStats> stats = WriteTiff(ref, tiff, options, cog ? "NONE" : options.compress);
  Status st = stats.status();
  if (st.ok() && cog) st = TranslateToCog(tiff, path, options);
  if (cog) VSIUnlink(tiff.c_str());
  if (!st.ok()) {
    VSIUnlink(path.c_str());
    return st;
  }
  return stats;
}

}  // namespace recflow::raster
