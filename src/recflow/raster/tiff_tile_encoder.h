// TileEncoder: one float32 TIFF tile encoded as libtiff's codecs decode it (floating-point predictor, then DEFLATE, ZSTD or LZW), on any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/raster/tiff_compression.h"

namespace recflow::raster {

/// Encodes float32 tiles of one size and compression, as a TIFF reader decodes them: the values
/// padded to the whole tile with NaN, little-endian, through the floating-point predictor
/// (TIFF Technical Note 3: each row's bytes split into planes, most significant first, then
/// differenced) when compressed, then DEFLATE (libdeflate, level 6 as GDAL's default), ZSTD
/// (level 9, GDAL's default) or LZW. Holds its compressor and scratch space: one per thread.
class TileEncoder {
 public:
  TileEncoder(TiffCompression compression, int tile_size);
  ~TileEncoder();
  TileEncoder(TileEncoder&& other) noexcept;
  TileEncoder(const TileEncoder&) = delete;
  TileEncoder& operator=(const TileEncoder&) = delete;

  /// Encodes `width` × `height` values (row-major, at most the tile size each way) as the
  /// tile's top-left corner into `out` (replacing its contents).
  Status Encode(const double* values, int64_t width, int64_t height, std::vector<uint8_t>* out);

 private:
  struct Codec;
  TiffCompression compression_;
  int tile_size_;
  std::vector<uint8_t> plain_;
  std::unique_ptr<Codec> codec_;
};

}  // namespace recflow::raster
