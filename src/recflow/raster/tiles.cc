// Tiles of a raster: the block-aligned grid, per-thread band reads through GDAL, and their parallel evaluation.
#include "recflow/raster/tiles.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>
#include <utility>

#include <fmt/format.h>
#include <gdal_priv.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "recflow/raster/expression.h"

namespace recflow::raster {

std::vector<TileRect> TilesOf(const RasterRef& ref) {
  const BandRef& first = ref.bands.front();
  int64_t block_w = std::max(1, first.block_width);
  int64_t block_h = std::max(1, first.block_height);
  if (block_w > kMaxTilePixels) block_w = kMaxTilePixels;
  if (block_w * block_h > kMaxTilePixels) block_h = std::max<int64_t>(1, kMaxTilePixels / block_w);
  if (block_w * block_h < kMinTilePixels) {
    // Whole strips grow in height; small square blocks in both directions.
    if (block_w < ref.width) {
      const auto k = static_cast<int64_t>(std::ceil(std::sqrt(static_cast<double>(kMinTilePixels) /
                                                             static_cast<double>(block_w * block_h))));
      block_w *= k;
    }
    block_h *= (kMinTilePixels + block_w * block_h - 1) / (block_w * block_h);
  }
  std::vector<TileRect> tiles;
  // Tile edges fall on multiples of the block size in the dataset's pixels (x0, y0 shift the grid).
  for (int64_t y = 0; y < ref.height;) {
    const int64_t y_end = std::min(ref.height, ((first.y0 + y) / block_h + 1) * block_h - first.y0);
    for (int64_t x = 0; x < ref.width;) {
      const int64_t x_end = std::min(ref.width, ((first.x0 + x) / block_w + 1) * block_w - first.x0);
      tiles.push_back({x, y, x_end - x, y_end - y});
      x = x_end;
    }
    y = y_end;
  }
  return tiles;
}

TileReader::TileReader(const RasterRef& ref, GdalConfig config) : ref_(ref), config_(std::move(config)) {}

TileReader::~TileReader() = default;

TileReader::TileReader(TileReader&& other) noexcept = default;

Status TileReader::ReadBand(int index, const TileRect& tile, double* out) {
  const BandRef& b = ref_.bands[static_cast<size_t>(index)];
  GdalThreadScope scope(config_);
  auto& ds = datasets_[b.dataset];
  if (ds == nullptr) {
    ds.reset(GDALDataset::Open(b.dataset.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR));
    if (ds == nullptr) return GdalError(b.dataset, "cannot open as a raster");
  }
  if (b.band > ds->GetRasterCount()) return GdalError(b.dataset, fmt::format("band {} is gone", b.band));
  GDALRasterBand* band = ds->GetRasterBand(b.band);
  if (b.overview >= 0) {
    band = b.overview < band->GetOverviewCount() ? band->GetOverview(b.overview) : nullptr;
    if (band == nullptr) return GdalError(b.dataset, fmt::format("band {}: overview {} is gone", b.band, b.overview));
  }
  const int64_t x = b.x0 + tile.x;
  const int64_t y = b.y0 + tile.y;
  GDALRasterIOExtraArg extra;
  INIT_RASTERIO_EXTRA_ARG(extra);
  if (band->RasterIO(GF_Read, static_cast<int>(x), static_cast<int>(y), static_cast<int>(tile.width),
                     static_cast<int>(tile.height), out, static_cast<int>(tile.width), static_cast<int>(tile.height),
                     GDT_Float64, 0, 0, &extra) != CE_None) {
    const int bx = static_cast<int>(x / std::max(1, b.block_width));
    const int by = static_cast<int>(y / std::max(1, b.block_height));
    // The block's byte offset in a TIFF (GDAL's TIFF metadata domain), else none.
    const std::string gdal_error = CPLGetLastErrorMsg();
    const char* offset = band->GetMetadataItem(fmt::format("BLOCK_OFFSET_{}_{}", bx, by).c_str(), "TIFF");
    std::string where = fmt::format("band {} ('{}'), block {},{} (pixels {},{} {}×{}){}", b.band, b.name, bx, by, x, y,
                                    tile.width, tile.height,
                                    offset != nullptr ? fmt::format(" at byte offset {}", offset) : "");
    CPLErrorReset();
    return Status::IOError("cannot read " + where + (gdal_error.empty() ? "" : ": " + gdal_error)).WithFile(b.dataset);
  }
  const int64_t n = tile.pixels();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (b.nodata) {
    const double nodata = *b.nodata;
    for (int64_t i = 0; i < n; ++i) out[i] = out[i] == nodata ? nan : out[i] * b.scale + b.offset;
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = out[i] * b.scale + b.offset;
  }
  return Status::OK();
}

namespace {

// One thread's reader and buffers.
struct ThreadState {
  ThreadState(const RasterRef& ref, const GdalConfig& config) : reader(ref, config) {}
  TileReader reader;
  std::vector<std::vector<double>> bands;
  std::vector<double> result;
  std::vector<std::vector<double>> scratch;
};

}  // namespace

Status EvaluateTiles(const RasterRef& ref, const GdalConfig& config, const StopToken& stop,
                     const TileConsumer& consume) {
  std::vector<std::string> names;
  for (const BandRef& b : ref.bands) names.push_back(b.name);
  std::optional<Expression> expression;
  if (!ref.expression.empty()) {
    ASSIGN_OR_RETURN(Expression compiled, Expression::Compile(ref.expression, names));
    expression = std::move(compiled);
  }
  const std::vector<TileRect> tiles = TilesOf(ref);
  tbb::enumerable_thread_specific<ThreadState> states([&] { return ThreadState(ref, config); });
  std::atomic<bool> failed{false};
  std::mutex mutex;
  size_t first_failed = tiles.size();
  Status first_error;
  tbb::parallel_for(size_t{0}, tiles.size(), [&](size_t t) {
    if (failed.load(std::memory_order_relaxed)) return;
    const TileRect& tile = tiles[t];
    ThreadState& state = states.local();
    const auto n = static_cast<size_t>(tile.pixels());
    state.bands.resize(ref.bands.size());
    std::vector<const double*> inputs(ref.bands.size(), nullptr);
    Status st = stop.Poll();
    for (size_t i = 0; i < ref.bands.size() && st.ok(); ++i) {
      if (expression && !std::binary_search(expression->used_bands().begin(), expression->used_bands().end(),
                                            static_cast<int>(i))) {
        continue;
      }
      state.bands[i].resize(n);
      st = state.reader.ReadBand(static_cast<int>(i), tile, state.bands[i].data());
      inputs[i] = state.bands[i].data();
    }
    if (st.ok()) {
      if (expression) {
        state.result.resize(n);
        expression->Evaluate(inputs, tile.pixels(), state.result.data(), state.scratch);
        const double* out = state.result.data();
        st = consume(tile, std::span<const double* const>(&out, 1));
      } else {
        st = consume(tile, inputs);
      }
    }
    if (!st.ok()) {
      std::lock_guard lock(mutex);
      if (t < first_failed) {
        first_failed = t;
        first_error = st;
      }
      failed.store(true, std::memory_order_relaxed);
    }
  });
  return first_error;
}

}  // namespace recflow::raster
