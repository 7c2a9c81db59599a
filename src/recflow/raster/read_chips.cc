// ReadChips: chips read as the tiles of one in-order evaluation, so each thread opens the datasets once (GDAL side, in the raster plugin).
#include <algorithm>
#include <limits>
#include <mutex>

#include <tbb/task_arena.h>

#include "recflow/raster/chips.h"

namespace recflow::raster {

Status ReadChips(const RasterRef& ref, std::span<const TileRect> rects, const GdalConfig& config,
                 const StopToken& stop, const ChipConsumer& consume) {
  const auto bands = static_cast<size_t>(ref.output_bands());
  // The tiles: each chip's part inside the grid, in pieces of whole rows of at most kMaxTilePixels pixels.
  std::vector<TileRect> tiles;
  std::vector<size_t> chip_of;
  std::vector<bool> last_piece;
  for (size_t c = 0; c < rects.size(); ++c) {
    const TileRect& rect = rects[c];
    const int64_t width = std::min(rect.width, ref.width - rect.x);
    const int64_t height = std::min(rect.height, ref.height - rect.y);
    if (width < 1 || height < 1) return Status::InvalidArgument("a chip starts outside the raster's grid");
    const int64_t rows = std::max<int64_t>(1, kMaxTilePixels / width);
    for (int64_t y = 0; y < height; y += rows) {
      tiles.push_back({rect.x, rect.y + y, width, std::min(rows, height - y)});
      chip_of.push_back(c);
      last_piece.push_back(y + rows >= height);
    }
  }
  // Tiles between compute and commit span at most slots + 1 chips: chip c's values live in buffer c % (slots + 1).
  const size_t slots = 2 * static_cast<size_t>(tbb::this_task_arena::max_concurrency());
  std::vector<std::vector<float>> buffers(slots + 1);
  std::mutex sizing;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  return EvaluateTilesInOrder(
      ref, tiles, config, stop, slots,
      [&](size_t index, const TileRect& tile, std::span<const double* const> values) {
        const size_t c = chip_of[index];
        const TileRect& rect = rects[c];
        std::vector<float>& chip = buffers[c % buffers.size()];
        {
          const std::lock_guard<std::mutex> lock(sizing);
          chip.resize(static_cast<size_t>(rect.pixels()) * bands);
        }
        // This piece's rows whole (NaN beyond the grid), and with the last piece the rows below the grid.
        const int64_t y0 = tile.y - rect.y;
        const int64_t y1 = last_piece[index] ? rect.height : y0 + tile.height;
        for (int64_t y = y0; y < y1; ++y) {
          float* row = chip.data() + static_cast<size_t>(y * rect.width) * bands;
          const int64_t inside = y - y0 < tile.height ? tile.width : 0;
          for (int64_t x = 0; x < inside; ++x) {
            for (size_t b = 0; b < bands; ++b) {
              row[static_cast<size_t>(x) * bands + b] = static_cast<float>(values[b][(y - y0) * tile.width + x]);
            }
          }
          std::fill(row + static_cast<size_t>(inside) * bands, row + static_cast<size_t>(rect.width) * bands, nan);
        }
        return Status::OK();
      },
      [&](size_t index) {
        if (!last_piece[index]) return Status::OK();
        const size_t c = chip_of[index];
        return consume(c, buffers[c % buffers.size()]);
      });
}

}  // namespace recflow::raster
