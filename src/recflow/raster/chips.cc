// Chips: the options and the chip grid of a raster (no GDAL; ReadChips, in read_chips.cc, reads chips in the plugin).
#include "recflow/raster/chips.h"

namespace recflow::raster {

Status ChipOptions::Validate() const {
  if (size < 1 || size > (int64_t{1} << 14)) return Status::InvalidArgument("size must be 1..16384 pixels");
  if (stride < 1) return Status::InvalidArgument("stride must be at least 1 pixel");
  return Status::OK();
}

std::vector<TileRect> ChipRects(const RasterRef& ref, const ChipOptions& options) {
  std::vector<TileRect> rects;
  for (int64_t y = 0; y < ref.height; y += options.stride) {
    if (y + options.size > ref.height && !options.pad) break;
    for (int64_t x = 0; x < ref.width; x += options.stride) {
      if (x + options.size > ref.width && !options.pad) break;
      rects.push_back({x, y, options.size, options.size});
    }
  }
  return rects;
}

}  // namespace recflow::raster
