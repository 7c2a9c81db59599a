// ReadChip: a chip's values from the raster windowed to it, read tile by tile (GDAL side, in the raster plugin).
#include "recflow/raster/chips.h"

#include <algorithm>
#include <limits>

namespace recflow::raster {

Status ReadChip(const RasterRef& ref, const TileRect& rect, const GdalConfig& config, const StopToken& stop,
                std::vector<float>* out) {
  const auto bands = static_cast<size_t>(ref.output_bands());
  out->assign(static_cast<size_t>(rect.pixels()) * bands, std::numeric_limits<float>::quiet_NaN());
  // The raster windowed to the part of the chip inside the grid.
  RasterRef window = ref;
  window.width = std::min(rect.width, ref.width - rect.x);
  window.height = std::min(rect.height, ref.height - rect.y);
  if (window.width < 1 || window.height < 1) return Status::OK();
  const auto& t = ref.transform;
  window.transform = {t[0] + rect.x * t[1] + rect.y * t[2], t[1], t[2], t[3] + rect.x * t[4] + rect.y * t[5], t[4], t[5]};
  for (BandRef& b : window.bands) {
    b.x0 += rect.x;
    b.y0 += rect.y;
  }
  // Tiles of the window are disjoint: each consumer writes its own pixels of `out`.
  return EvaluateTiles(window, config, stop, [&](const TileRect& tile, std::span<const double* const> values) {
    for (int64_t ty = 0; ty < tile.height; ++ty) {
      float* row = out->data() + static_cast<size_t>(((tile.y + ty) * rect.width + tile.x) * static_cast<int64_t>(bands));
      for (int64_t tx = 0; tx < tile.width; ++tx) {
        for (size_t b = 0; b < bands; ++b) {
          row[static_cast<size_t>(tx) * bands + b] = static_cast<float>(values[b][ty * tile.width + tx]);
        }
      }
    }
    return Status::OK();
  });
}

}  // namespace recflow::raster
