// TiffCompression: the TIFF compressions write_raster writes, by their names in the step's arguments.
#pragma once

#include <cstdint>
#include <string>

#include "recflow/core/result.h"

namespace recflow::raster {

/// The TIFF compressions write_raster writes (their TIFF Compression tag values).
enum class TiffCompression : uint16_t {
  kNone = 1,
  kLzw = 5,
  kDeflate = 8,  ///< "Adobe deflate": a zlib stream
  kZstd = 50000,
};

/// The compression named `name` (DEFLATE, ZSTD, LZW, NONE; as WriteOptions::compress),
/// InvalidArgument for another.
inline Result<TiffCompression> ParseTiffCompression(const std::string& name) {
  if (name == "NONE") return TiffCompression::kNone;
  if (name == "DEFLATE") return TiffCompression::kDeflate;
  if (name == "ZSTD") return TiffCompression::kZstd;
  if (name == "LZW") return TiffCompression::kLzw;
  return Status::InvalidArgument("compress must be DEFLATE, ZSTD, LZW or NONE, not '" + name + "'");
}

/// The TIFF Predictor tag of a float32 tile written with `compression`: 3 (floating point) when
/// compressed, 1 (none) when not.
inline int PredictorOf(TiffCompression compression) { return compression == TiffCompression::kNone ? 1 : 3; }

}  // namespace recflow::raster
