// WriteRaster: tiles encoded on the workers and written raw into a tiled GeoTIFF (turned into a COG by GDAL's COG driver); a failure removes what it wrote.
#include "recflow/raster/write_raster.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include <cpl_string.h>
#include <cpl_vsi.h>
#include <fmt/format.h>
#include <gdal_priv.h>
#include <ogr_spatialref.h>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/task_arena.h>

#include "recflow/raster/gdal_dataset.h"
#include "recflow/raster/raw_tile_writer.h"
#include "recflow/raster/tiff_tile_encoder.h"
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

// Accumulates WriteStats over a tile's values, and over tiles in their order.
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
  void Merge(const StatsAccumulator& other) {
    valid += other.valid;
    min = std::min(min, other.min);
    max = std::max(max, other.max);
    sum += other.sum;
  }
  WriteStats Result() const {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (valid == 0) return {0, nan, nan, nan};
    return {valid, min, max, sum / static_cast<double>(valid)};
  }
};

// Creates the tiled float32 GeoTIFF `path` with `ref`'s grid, CRS, NaN nodata and band names and
// no tile written (SPARSE_OK): RawTileWriter appends the tiles.
Status CreateEmptyTiff(const RasterRef& ref, const std::string& path, const WriteOptions& options,
                       TiffCompression compression) {
  GDALDriver* driver = GetGDALDriverManager()->GetDriverByName("GTiff");
  if (driver == nullptr) return Status::Internal("GDAL has no GTiff driver");
  CPLStringList create;
  create.SetNameValue("TILED", "YES");
  create.SetNameValue("BLOCKXSIZE", std::to_string(options.block_size).c_str());
  create.SetNameValue("BLOCKYSIZE", std::to_string(options.block_size).c_str());
  create.SetNameValue("COMPRESS", compression == TiffCompression::kNone ? "NONE" : options.compress.c_str());
  create.SetNameValue("PREDICTOR", std::to_string(PredictorOf(compression)).c_str());
  create.SetNameValue("SPARSE_OK", "TRUE");
  create.SetNameValue("BIGTIFF", "IF_SAFER");
  create.SetNameValue("INTERLEAVE", "BAND");
  create.SetNameValue("ENDIANNESS", "LITTLE");  // what TileEncoder writes
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
  return Close(ds, path);
}

// One tile between its worker and the in-order write: each band's encoded bytes and its statistics.
struct EncodedTile {
  std::vector<std::vector<uint8_t>> bands;
  StatsAccumulator stats;
};

// Builds GDAL's averaged overviews of the GeoTIFF `path` (compressed as its full resolution).
Status BuildOverviews(const RasterRef& ref, const std::string& path, const WriteOptions& options) {
  const std::vector<int> factors = OverviewFactors(ref, options.block_size);
  if (factors.empty()) return Status::OK();
  CPLStringList open;
  open.SetNameValue("NUM_THREADS", std::to_string(std::max(1, options.threads)).c_str());
  std::unique_ptr<GDALDataset> ds(GDALDataset::Open(path.c_str(), GDAL_OF_RASTER | GDAL_OF_UPDATE, nullptr,
                                                    open.List(), nullptr));
  if (ds == nullptr) return GdalError(path, "cannot reopen to build overviews");
  Status st;
  if (ds->BuildOverviews("AVERAGE", static_cast<int>(factors.size()), factors.data(), 0, nullptr, nullptr,
                         nullptr) != CE_None) {
    st = GdalError(path, "cannot build overviews");
  }
  Status closed = Close(ds, path);
  RETURN_NOT_OK(st);
  return closed;
}

// Writes every tile of `ref` into a new tiled float32 GeoTIFF at `path`, each tile encoded on
// the worker that computed it and written raw in tile order (the file's bytes do not depend on
// the thread count), the statistics merged in the same order.
Result<WriteStats> WriteTiff(const RasterRef& ref, const std::string& path, const WriteOptions& options,
                             TiffCompression compression) {
  RETURN_NOT_OK(CreateEmptyTiff(ref, path, options, compression));
  ASSIGN_OR_RETURN(std::unique_ptr<RawTileWriter> file, RawTileWriter::Open(path));
  const std::vector<TileRect> tiles = BlockTilesOf(ref.width, ref.height, options.block_size);
  const auto slots = 2 * static_cast<size_t>(tbb::this_task_arena::max_concurrency());
  std::vector<EncodedTile> encoded(slots);
  tbb::enumerable_thread_specific<TileEncoder> encoders([&] { return TileEncoder(compression, options.block_size); });
  StatsAccumulator stats;
  Status st = EvaluateTilesInOrder(
      ref, tiles, options.config, options.stop_token, slots,
      [&](size_t index, const TileRect& tile, std::span<const double* const> values) -> Status {
        EncodedTile& out = encoded[index % slots];
        out.bands.resize(values.size());
        out.stats = {};
        TileEncoder& encoder = encoders.local();
        for (size_t b = 0; b < values.size(); ++b) {
          out.stats.Add(values[b], tile.pixels());
          RETURN_NOT_OK(encoder.Encode(values[b], tile.width, tile.height, &out.bands[b]));
        }
        return Status::OK();
      },
      [&](size_t index) -> Status {
        const EncodedTile& tile = encoded[index % slots];
        for (size_t b = 0; b < tile.bands.size(); ++b) {
          RETURN_NOT_OK(file->Write(static_cast<int>(b), tiles[index].x, tiles[index].y, tile.bands[b]));
        }
        stats.Merge(tile.stats);
        return Status::OK();
      });
  Status closed = file->Close();
  RETURN_NOT_OK(st);
  RETURN_NOT_OK(closed);
  if (options.overviews && options.layout == WriteOptions::Layout::kGeoTiff) {
    RETURN_NOT_OK(BuildOverviews(ref, path, options));
  }
  return stats.Result();
}

// Translates the tiled GeoTIFF `from` into a COG at `to`.
Status TranslateToCog(const std::string& from, const std::string& to, const WriteOptions& options) {
  GDALDriver* driver = GetGDALDriverManager()->GetDriverByName("COG");
  if (driver == nullptr) return Status::Internal("GDAL has no COG driver");
  ASSIGN_OR_RETURN(std::unique_ptr<GDALDataset> source, OpenDataset(from));
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

Result<WriteStats> WriteRaster(const RasterRef& ref, const std::string& path, const WriteOptions& options) {
  RETURN_NOT_OK(options.Validate());
  if (ref.width > INT32_MAX || ref.height > INT32_MAX) {
    return Status::InvalidArgument(fmt::format("{} × {} pixels is more than GDAL writes", ref.width, ref.height))
        .WithFile(path);
  }
  GdalThreadScope scope(options.config);
  const bool cog = options.layout == WriteOptions::Layout::kCog;
  // A COG is translated from an uncompressed tiled GeoTIFF: its overviews must precede the data.
  const std::string tiff = cog ? CogTilesPath(path) : path;
  ASSIGN_OR_RETURN(const TiffCompression compression, ParseTiffCompression(options.compress));
  Result<WriteStats> stats = WriteTiff(ref, tiff, options, cog ? TiffCompression::kNone : compression);
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
