// Tiles of a raster: the block-aligned grid, per-thread band reads through GDAL, and their parallel evaluation.
#include "recflow/raster/tiles.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <gdal_priv.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include "recflow/raster/expression.h"
#include "recflow/raster/gdal_dataset.h"

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

std::vector<TileRect> BlockTilesOf(int64_t width, int64_t height, int block) {
  std::vector<TileRect> tiles;
  for (int64_t y = 0; y < height; y += block) {
    for (int64_t x = 0; x < width; x += block) {
      tiles.push_back({x, y, std::min<int64_t>(block, width - x), std::min<int64_t>(block, height - y)});
    }
  }
  return tiles;
}

TileReader::TileReader(const RasterRef& ref, GdalConfig config) : ref_(ref), config_(std::move(config)) {}

TileReader::~TileReader() = default;

TileReader::TileReader(TileReader&& other) noexcept = default;

Status TileReader::ReadBands(std::span<const int> bands, const TileRect& tile, std::vector<std::vector<double>>& out) {
  GdalThreadScope scope(config_);
  for (const int band : bands) {
    std::vector<double>& values = out[static_cast<size_t>(band)];
    values.resize(static_cast<size_t>(tile.pixels()));
    RETURN_NOT_OK(ReadBand(band, tile, values.data()));
  }
  return Status::OK();
}

Status TileReader::ReadBand(int index, const TileRect& tile, double* out) {
  const BandRef& b = ref_.bands[static_cast<size_t>(index)];
  auto& ds = datasets_[b.dataset];
  if (ds == nullptr) {
    ASSIGN_OR_RETURN(ds, OpenDataset(b.dataset));
  }
  if (b.band > ds->GetRasterCount()) return GdalError(DatasetFile(b.dataset), fmt::format("band {} is gone", b.band));
  GDALRasterBand* band = ds->GetRasterBand(b.band);
  if (b.overview >= 0) {
    band = b.overview < band->GetOverviewCount() ? band->GetOverview(b.overview) : nullptr;
    if (band == nullptr) {
      return GdalError(DatasetFile(b.dataset), fmt::format("band {}: overview {} is gone", b.band, b.overview));
    }
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
    std::string gdal_error = CPLGetLastErrorMsg();
    const char* offset = band->GetMetadataItem(fmt::format("BLOCK_OFFSET_{}_{}", bx, by).c_str(), "TIFF");
    const std::string file = DatasetFile(b.dataset);
    std::string through;
    if (file != b.dataset) {
      // A warped or mosaic band: GDAL names the VRT by (the end of) its XML; the files it reads are named instead.
      through = " (read through a VRT of " + file + ")";
      const std::string_view xml_end = "VRTDataset>";
      const size_t end = gdal_error.rfind(xml_end);
      if (end != std::string::npos) {
        const size_t rest = gdal_error.find_first_not_of("\n, ", end + xml_end.size());
        gdal_error = rest == std::string::npos ? std::string() : gdal_error.substr(rest);
      }
    }
    std::string where = fmt::format("band {} ('{}'){}, block {},{} (pixels {},{} {}×{}){}", b.band, b.name, through,
                                    bx, by, x, y, tile.width, tile.height,
                                    offset != nullptr ? fmt::format(" at byte offset {}", offset) : "");
    CPLErrorReset();
    return Status::IOError("cannot read " + where + (gdal_error.empty() ? "" : ": " + gdal_error)).WithFile(file);
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

// A tile between the pipeline's steps: its index and what computing it gave.
struct TileToken {
  size_t index = 0;
  Status status;
};

}  // namespace

Status EvaluateTilesInOrder(const RasterRef& ref, std::span<const TileRect> tiles, const GdalConfig& config,
                            const StopToken& stop, size_t slots, const IndexedTileConsumer& compute,
                            const std::function<Status(size_t index)>& commit) {
  std::vector<std::string> names;
  for (const BandRef& b : ref.bands) names.push_back(b.name);
  std::optional<Expression> expression;
  std::vector<int> used;
  if (!ref.expression.empty()) {
    ASSIGN_OR_RETURN(Expression compiled, Expression::Compile(ref.expression, names));
    expression = std::move(compiled);
    used = expression->used_bands();
  } else {
    for (size_t i = 0; i < ref.bands.size(); ++i) used.push_back(static_cast<int>(i));
  }
  tbb::enumerable_thread_specific<ThreadState> states([&] { return ThreadState(ref, config); });
  size_t next = 0;
  std::atomic<bool> failed{false};  // set by the in-order step, read by the first
  Status first_error;
  tbb::parallel_pipeline(
      std::max<size_t>(1, slots),
      tbb::make_filter<void, TileToken>(tbb::filter_mode::serial_in_order,
                                        [&](tbb::flow_control& fc) -> TileToken {
                                          if (failed.load() || next == tiles.size()) {
                                            fc.stop();
                                            return {};
                                          }
                                          return {next++, Status::OK()};
                                        }) &
          tbb::make_filter<TileToken, TileToken>(
              tbb::filter_mode::parallel,
              [&](TileToken token) {
                token.status = stop.Poll();
                if (!token.status.ok()) return token;
                const TileRect& tile = tiles[token.index];
                ThreadState& state = states.local();
                state.bands.resize(ref.bands.size());
                token.status = state.reader.ReadBands(used, tile, state.bands);
                if (!token.status.ok()) return token;
                std::vector<const double*> inputs(ref.bands.size(), nullptr);
                for (const int i : used) inputs[static_cast<size_t>(i)] = state.bands[static_cast<size_t>(i)].data();
                if (expression) {
                  state.result.resize(static_cast<size_t>(tile.pixels()));
                  expression->Evaluate(inputs, tile.pixels(), state.result.data(), state.scratch);
                  const double* out = state.result.data();
                  token.status = compute(token.index, tile, std::span<const double* const>(&out, 1));
                } else {
                  token.status = compute(token.index, tile, inputs);
                }
                return token;
              }) &
          tbb::make_filter<TileToken, void>(tbb::filter_mode::serial_in_order, [&](const TileToken& token) {
            if (failed.load()) return;
            Status st = token.status.ok() ? commit(token.index) : token.status;
            if (!st.ok()) {
              failed.store(true);
              first_error = std::move(st);
            }
          }));
  return first_error;
}

Status EvaluateTiles(const RasterRef& ref, const GdalConfig& config, const StopToken& stop,
                     const TileConsumer& consume) {
  const std::vector<TileRect> tiles = TilesOf(ref);
  return EvaluateTilesInOrder(
      ref, tiles, config, stop, 2 * static_cast<size_t>(tbb::this_task_arena::max_concurrency()),
      [&](size_t, const TileRect& tile, std::span<const double* const> bands) { return consume(tile, bands); },
      [](size_t) { return Status::OK(); });
}

}  // namespace recflow::raster
