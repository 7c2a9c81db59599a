// Tiles of a raster: block-aligned rectangles of its grid, read band by band on each worker thread with that thread's own GDAL handles.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/core/stop_token.h"
#include "recflow/raster/gdal_env.h"
#include "recflow/raster/raster_ref.h"

class GDALDataset;

namespace recflow::raster {

/// Pixels [x, x + width) × [y, y + height) of a RasterRef's grid.
struct TileRect {
  int64_t x = 0;
  int64_t y = 0;
  int64_t width = 0;
  int64_t height = 0;
  int64_t pixels() const { return width * height; }
};

/// The largest tile in pixels (4 Mi): a file whose blocks are larger (whole-image strips) is read
/// in pieces of whole block rows.
inline constexpr int64_t kMaxTilePixels = int64_t{1} << 22;
/// The smallest tile in pixels (256 Ki) where the grid allows: small blocks (strips of a few rows,
/// 16 × 16 tiles) are read several at a time, so the per-tile work is not per-block overhead.
inline constexpr int64_t kMinTilePixels = int64_t{1} << 18;

/// The tiles covering `ref`'s grid, row by row, their edges on the first band's internal block
/// boundaries (in its dataset's pixels, so each read touches whole blocks): one block, or whole
/// multiples of it between kMinTilePixels and kMaxTilePixels.
std::vector<TileRect> TilesOf(const RasterRef& ref);

/// The tiles of a `width` × `height` grid cut into `block` × `block` squares from its top-left
/// corner, row by row: a tiled TIFF's tiles in their order (the last column and row narrower).
std::vector<TileRect> BlockTilesOf(int64_t width, int64_t height, int block);

/// Reads tiles of one raster's bands on one thread: each dataset is opened once, by that thread
/// (GDAL handles are not thread-safe), and closed with the reader.
class TileReader {
 public:
  /// `ref` must outlive the reader; `config` is copied.
  TileReader(const RasterRef& ref, GdalConfig config);
  ~TileReader();
  TileReader(TileReader&& other) noexcept;

  /// The bands `bands` (indexes into the reference's bands) over `tile`, band bands[i] into
  /// out[bands[i]] (resized to tile.pixels() values, row-major), under one GdalThreadScope: DN ×
  /// scale + offset, NaN where the DN is the band's nodata or NaN. Errors name the dataset (as
  /// their file), the band, the block and, for a TIFF, the block's byte offset (in the message:
  /// the error's own byte offset is the pipeline input's).
  Status ReadBands(std::span<const int> bands, const TileRect& tile, std::vector<std::vector<double>>& out);

 private:
  Status ReadBand(int band, const TileRect& tile, double* out);
  const RasterRef& ref_;
  GdalConfig config_;
  std::map<std::string, std::unique_ptr<GDALDataset>> datasets_;
};

/// Output bands of one tile (RasterRef::output_bands() arrays of tile.pixels() values).
using TileConsumer = std::function<Status(const TileRect& tile, std::span<const double* const> bands)>;
/// A TileConsumer told the tile's index in the evaluated list.
using IndexedTileConsumer =
    std::function<Status(size_t index, const TileRect& tile, std::span<const double* const> bands)>;

/// Computes `ref`'s values (its bands, or its expression over them) over `tiles`, spread over the
/// calling task arena's threads, each thread with its own TileReader: `compute` runs concurrently
/// for different tiles, then `commit` runs for each tile in the order of `tiles`, one at a time
/// (on any thread). At most `slots` tiles are between compute and its commit, so whatever compute
/// keeps for tile i may live in slot i % slots until commit(i). Stops at the first error in tile
/// order and returns it; `stop` is checked before each tile (Cancelled once a stop was requested:
/// no tile starts after it). Memory: `slots` tiles' worth, whatever the grid's size.
Status EvaluateTilesInOrder(const RasterRef& ref, std::span<const TileRect> tiles, const GdalConfig& config,
                            const StopToken& stop, size_t slots, const IndexedTileConsumer& compute,
                            const std::function<Status(size_t index)>& commit);

/// EvaluateTilesInOrder over TilesOf(ref) (tiles on the first band's blocks) with no in-order
/// step: `consume` runs concurrently for different tiles.
Status EvaluateTiles(const RasterRef& ref, const GdalConfig& config, const StopToken& stop,
                     const TileConsumer& consume);

}  // namespace recflow::raster
