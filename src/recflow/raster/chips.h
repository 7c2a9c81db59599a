// Chips: fixed-size patches of a raster (training samples), their positions on the grid and their values read through the tile reader.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/core/stop_token.h"
#include "recflow/raster/gdal_env.h"
#include "recflow/raster/raster_ref.h"
#include "recflow/raster/tiles.h"

namespace recflow::raster {

/// How a raster is cut into chips.
struct ChipOptions {
  int64_t size = 256;    ///< a chip's edge in pixels
  int64_t stride = 256;  ///< pixels between two chips' origins (< size: overlapping chips)
  /// Chips reaching past the right or bottom edge: kept, the pixels beyond the grid nodata (NaN),
  /// when set; left out otherwise.
  bool pad = false;

  /// InvalidArgument for a size or stride below 1, or a size above 2^14.
  Status Validate() const;
};

/// The chips of `ref`'s grid, row by row: origins every `stride` pixels from (0, 0), each `size`
/// wide and high (its rect may reach past the grid only with `pad`).
std::vector<TileRect> ChipRects(const RasterRef& ref, const ChipOptions& options);

/// What ReadChips hands over for each chip, in the order of its rects: the chip's index and its
/// values (rect.height × rect.width × output_bands() float32, row-major with the bands interleaved
/// per pixel: HWC, the layout of a tf.Example image tensor; NaN for nodata and pixels beyond the
/// grid), valid during the call.
using ChipConsumer = std::function<Status(size_t index, std::span<const float> values)>;

/// `ref`'s values over each of `rects` (which may reach past the grid), handed to `consume` one
/// chip at a time in the order of `rects`. The chips are read on the calling arena's threads
/// (EvaluateTilesInOrder, the chips as its tiles), each thread with its own dataset handles opened
/// once for the call, not per chip; a chip of more than kMaxTilePixels pixels is read in pieces of
/// whole rows. Memory: about two chips per thread. Errors name the dataset. In the raster plugin
/// (RasterApi::read_chips).
Status ReadChips(const RasterRef& ref, std::span<const TileRect> rects, const GdalConfig& config,
                 const StopToken& stop, const ChipConsumer& consume);

}  // namespace recflow::raster
