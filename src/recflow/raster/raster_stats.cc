// ComputeRasterStats: per-tile ValueStats of every output band, merged in tile order.
#include "recflow/raster/raster_stats.h"

#include <tbb/task_arena.h>

#include "recflow/raster/tiles.h"

namespace recflow::raster {

Result<std::vector<ValueStats>> ComputeRasterStats(const RasterRef& ref, const GdalConfig& config,
                                                   const StopToken& stop) {
  const std::vector<TileRect> tiles = TilesOf(ref);
  const auto bands = static_cast<size_t>(ref.output_bands());
  // Tile i's statistics live in slot i % slots until they are merged, in tile order.
  const auto slots = 2 * static_cast<size_t>(tbb::this_task_arena::max_concurrency());
  std::vector<std::vector<ValueStats>> partials(slots, std::vector<ValueStats>(bands));
  std::vector<ValueStats> out(bands);
  RETURN_NOT_OK(EvaluateTilesInOrder(
      ref, tiles, config, stop, slots,
      [&](size_t index, const TileRect& tile, std::span<const double* const> values) {
        std::vector<ValueStats>& slot = partials[index % slots];
        for (size_t b = 0; b < bands; ++b) {
          slot[b] = ValueStats();
          const double* v = values[b];
          for (int64_t i = 0; i < tile.pixels(); ++i) slot[b].Add(v[i]);
        }
        return Status::OK();
      },
      [&](size_t index) {
        for (size_t b = 0; b < bands; ++b) out[b].Merge(partials[index % slots][b]);
        return Status::OK();
      }));
  return out;
}

}  // namespace recflow::raster
