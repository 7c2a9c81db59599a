// RawTileWriter: already-encoded tiles written into a tiled TIFF with libtiff's TIFFWriteRawTile (GDAL 3.6 has no raw-tile write).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "recflow/core/result.h"

namespace recflow::raster {

/// A tiled, band-interleaved TIFF created empty (GDAL with SPARSE_OK: no tile written, so every
/// tile is appended at the end of the file) whose tiles are then written as the encoded bytes
/// the file's compression and predictor expect (TileEncoder). Write in a fixed order and the
/// file's bytes are fixed. One thread at a time.
class RawTileWriter {
 public:
  /// Opens `path` for update; IOError naming it and libtiff's message when it cannot.
  static Result<std::unique_ptr<RawTileWriter>> Open(const std::string& path);
  /// Closes the file if Close() was not called (what failed is then not reported).
  ~RawTileWriter();
  RawTileWriter(const RawTileWriter&) = delete;
  RawTileWriter& operator=(const RawTileWriter&) = delete;

  /// Writes the tile of band `band` (0-based) whose top-left pixel is `x`, `y`.
  Status Write(int band, int64_t x, int64_t y, std::span<const uint8_t> bytes);
  /// Writes the directory's tile offsets and byte counts and closes the file.
  Status Close();

 private:
  struct State;
  explicit RawTileWriter(std::unique_ptr<State> state);
  Status Error(const std::string& what);
  std::unique_ptr<State> state_;
};

}  // namespace recflow::raster
