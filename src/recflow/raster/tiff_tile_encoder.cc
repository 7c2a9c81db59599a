// TileEncoder: float32 conversion with NaN padding, TIFF's floating-point predictor, and the DEFLATE/ZSTD/LZW codecs.
#include "recflow/raster/tiff_tile_encoder.h"

#include <cstring>
#include <limits>

#include <libdeflate.h>
#include <zstd.h>

#include "recflow/raster/tiff_lzw.h"

namespace recflow::raster {

// The compressor of one encoder: libdeflate's, zstd's context or the LZW string table.
struct TileEncoder::Codec {
  ~Codec() {
    if (deflate != nullptr) libdeflate_free_compressor(deflate);
    if (zstd != nullptr) ZSTD_freeCCtx(zstd);
  }
  libdeflate_compressor* deflate = nullptr;
  ZSTD_CCtx* zstd = nullptr;
  LzwEncoder lzw;
};

namespace {

constexpr int kDeflateLevel = 6;  // GDAL's ZLEVEL default
constexpr int kZstdLevel = 9;     // GDAL's ZSTD_LEVEL default

// TIFF Technical Note 3's floating-point predictor over one row of `count` float32 values
// (host order, little-endian): byte planes, most significant first, then each byte minus the one before.
void FloatPredictRow(const uint8_t* row, size_t count, uint8_t* out) {
  for (size_t i = 0; i < count; ++i) {
    for (size_t b = 0; b < 4; ++b) out[(3 - b) * count + i] = row[4 * i + b];
  }
  for (size_t i = 4 * count; i-- > 1;) out[i] = static_cast<uint8_t>(out[i] - out[i - 1]);
}

}  // namespace

TileEncoder::TileEncoder(TiffCompression compression, int tile_size)
    : compression_(compression), tile_size_(tile_size), codec_(std::make_unique<Codec>()) {}

TileEncoder::~TileEncoder() = default;

TileEncoder::TileEncoder(TileEncoder&& other) noexcept = default;

Status TileEncoder::Encode(const double* values, int64_t width, int64_t height, std::vector<uint8_t>* out) {
  const auto size = static_cast<size_t>(tile_size_);
  const size_t bytes = size * size * sizeof(float);
  std::vector<uint8_t>& target = compression_ == TiffCompression::kNone ? *out : plain_;
  target.resize(bytes);
  std::vector<float> row(size);
  for (size_t y = 0; y < size; ++y) {
    std::fill(row.begin(), row.end(), std::numeric_limits<float>::quiet_NaN());
    if (static_cast<int64_t>(y) < height) {
      const double* in = values + static_cast<int64_t>(y) * width;
      for (int64_t x = 0; x < width; ++x) row[static_cast<size_t>(x)] = static_cast<float>(in[x]);
    }
    uint8_t* dest = target.data() + y * size * sizeof(float);
    if (compression_ == TiffCompression::kNone) {
      std::memcpy(dest, row.data(), size * sizeof(float));
    } else {
      FloatPredictRow(reinterpret_cast<const uint8_t*>(row.data()), size, dest);
    }
  }
  switch (compression_) {
    case TiffCompression::kNone:
      return Status::OK();
    case TiffCompression::kDeflate: {
      if (codec_->deflate == nullptr) codec_->deflate = libdeflate_alloc_compressor(kDeflateLevel);
      if (codec_->deflate == nullptr) return Status::OutOfMemory("cannot allocate a DEFLATE compressor");
      out->resize(libdeflate_zlib_compress_bound(codec_->deflate, bytes));
      const size_t n = libdeflate_zlib_compress(codec_->deflate, plain_.data(), bytes, out->data(), out->size());
      if (n == 0) return Status::Internal("DEFLATE output exceeded its bound");
      out->resize(n);
      return Status::OK();
    }
    case TiffCompression::kZstd: {
      if (codec_->zstd == nullptr) codec_->zstd = ZSTD_createCCtx();
      if (codec_->zstd == nullptr) return Status::OutOfMemory("cannot allocate a ZSTD context");
      out->resize(ZSTD_compressBound(bytes));
      const size_t n = ZSTD_compressCCtx(codec_->zstd, out->data(), out->size(), plain_.data(), bytes, kZstdLevel);
      if (ZSTD_isError(n)) return Status::Internal(std::string("ZSTD: ") + ZSTD_getErrorName(n));
      out->resize(n);
      return Status::OK();
    }
    case TiffCompression::kLzw:
      out->clear();
      codec_->lzw.Encode(plain_, out);
      return Status::OK();
  }
  return Status::Internal("unknown TIFF compression");
}

}  // namespace recflow::raster
