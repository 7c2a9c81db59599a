// ComputeRasterStats: per-tile ValueStats of every output band, merged in tile order.
#include "recflow/raster/raster_stats.h"

#include <map>
#include <utility>

#include "recflow/raster/tiles.h"

namespace recflow::raster {

Result<std::vector<ValueStats>> ComputeRasterStats(const RasterRef& ref, const GdalConfig& config,
                                                   const StopToken& stop) {
  const std::vector<TileRect> tiles = TilesOf(ref);
  std::map<std::pair<int64_t, int64_t>, size_t> tile_index;
  for (size_t i = 0; i < tiles.size(); ++i) tile_index[{tiles[i].y, tiles[i].x}] = i;
  const auto bands = static_cast<size_t>(ref.output_bands());
  // One slot per tile, each written by the one thread computing that tile.
  std::vector<std::vector<ValueStats>> partials(tiles.size(), std::vector<ValueStats>(bands));
  RETURN_NOT_OK(EvaluateTiles(ref, config, stop, [&](const TileRect& tile, std::span<const double* const> values) {
    std::vector<ValueStats>& slot = partials[tile_index.at({tile.y, tile.x})];
    for (size_t b = 0; b < bands; ++b) {
      const double* v = values[b];
      for (int64_t i = 0; i < tile.pixels(); ++i) slot[b].Add(v[i]);
    }
    return Status::OK();
  }));
  std::vector<ValueStats> out(bands);
  for (const auto& slot : partials) {
    for (size_t b = 0; b < bands; ++b) out[b].Merge(slot[b]);
  }
  return out;
}

}  // namespace recflow::raster
