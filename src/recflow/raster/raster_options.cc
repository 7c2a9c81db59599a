// The raster steps' options checked where the steps are built (no GDAL): OpenOptions, WriteOptions, resampling and mosaic rule names.
#include "recflow/raster/mosaic_raster.h"
#include "recflow/raster/open_raster.h"
#include "recflow/raster/tiff_compression.h"
#include "recflow/raster/warp_raster.h"
#include "recflow/raster/write_raster.h"

namespace recflow::raster {

Status OpenOptions::Validate() const {
  if (bands.empty()) return Status::InvalidArgument("read_raster needs at least one band");
  if (grid_band < 0 || static_cast<size_t>(grid_band) >= bands.size()) {
    return Status::InvalidArgument("the grid band is not one of the bands");
  }
  if (window && bbox) return Status::InvalidArgument("give a window or a bbox, not both");
  if (window && ((*window)[0] < 0 || (*window)[1] < 0 || (*window)[2] < 1 || (*window)[3] < 1)) {
    return Status::InvalidArgument("a window is x, y >= 0 and width, height >= 1");
  }
  if (max_pixels < 1 || max_pixels > (int64_t{1} << 36)) return Status::InvalidArgument("max_pixels must be in 1..2^36");
  return Status::OK();
}

Status WriteOptions::Validate() const {
  RETURN_NOT_OK(ParseTiffCompression(compress).status());
  if (block_size < 16 || block_size > 4096 || block_size % 16 != 0) {
    return Status::InvalidArgument("block_size must be a multiple of 16 in 16..4096");
  }
  return Status::OK();
}

Result<Resampling> ParseResampling(const std::string& name) {
  if (name == "nearest" || name == "near") return Resampling::kNearest;
  if (name == "bilinear") return Resampling::kBilinear;
  if (name == "cubic") return Resampling::kCubic;
  if (name == "average") return Resampling::kAverage;
  return Status::InvalidArgument("resampling '" + name + "' is not nearest, bilinear, cubic or average");
}

Result<MosaicRule> ParseMosaicRule(const std::string& name) {
  if (name == "first") return MosaicRule::kFirst;
  if (name == "last") return MosaicRule::kLast;
  if (name == "max") return MosaicRule::kMax;
  if (name == "min") return MosaicRule::kMin;
  if (name == "max_ndvi") return MosaicRule::kMaxNdvi;
  return Status::InvalidArgument("rule '" + name + "' is not first, last, max, min or max_ndvi");
}

}  // namespace recflow::raster
