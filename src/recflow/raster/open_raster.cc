// OpenRaster: every band's dataset opened once, its band, level, grid, CRS and window checked, and described as a RasterRef.
#include "recflow/raster/open_raster.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>

#include <fmt/format.h>
#include <gdal_priv.h>
#include <ogr_spatialref.h>

#include "recflow/raster/gdal_dataset.h"

namespace recflow::raster {
namespace {

struct Level {
  GDALRasterBand* band = nullptr;
  int index = 0;  // 1-based, in the dataset
  std::array<double, 6> transform{};
  const OGRSpatialReference* srs = nullptr;
};

std::string BandLabel(const BandSource& s) {
  return s.description.empty() ? fmt::format("band {} ('{}')", s.band, s.name)
                               : fmt::format("band '{}' ('{}')", s.description, s.name);
}

// The band `s` names in `ds` at `overview`, with that level's geotransform.
Result<Level> FindLevel(GDALDataset& ds, const BandSource& s, int overview) {
  Level level;
  const int count = ds.GetRasterCount();
  if (s.description.empty()) {
    if (s.band < 1 || s.band > count) {
      return Status::DataError(fmt::format("{}: no such band (the dataset has {})", BandLabel(s), count))
          .WithFile(s.dataset);
    }
    level.index = s.band;
  } else {
    for (int i = 1; i <= count && level.index == 0; ++i) {
      if (s.description == ds.GetRasterBand(i)->GetDescription()) level.index = i;
    }
    if (level.index == 0) {
      return Status::DataError(fmt::format("{}: no band has that description", BandLabel(s))).WithFile(s.dataset);
    }
  }
  level.band = ds.GetRasterBand(level.index);
  const int64_t full_width = level.band->GetXSize();
  const int64_t full_height = level.band->GetYSize();
  if (overview >= 0) {
    const int overviews = level.band->GetOverviewCount();
    if (overview >= overviews) {
      return Status::DataError(fmt::format("{}: no overview {} (the band has {})", BandLabel(s), overview, overviews))
          .WithFile(s.dataset);
    }
    level.band = level.band->GetOverview(overview);
  }
  if (ds.GetGeoTransform(level.transform.data()) != CE_None) {
    return Status::DataError(fmt::format("{}: the dataset has no geotransform", BandLabel(s))).WithFile(s.dataset);
  }
  const double sx = static_cast<double>(full_width) / level.band->GetXSize();
  const double sy = static_cast<double>(full_height) / level.band->GetYSize();
  level.transform[1] *= sx;
  level.transform[4] *= sx;
  level.transform[2] *= sy;
  level.transform[5] *= sy;
  level.srs = ds.GetSpatialRef();
  return level;
}

bool SameTransform(const std::array<double, 6>& a, const std::array<double, 6>& b) {
  for (size_t i = 0; i < 6; ++i) {
    if (std::fabs(a[i] - b[i]) > 1e-9 * std::max({1.0, std::fabs(a[i]), std::fabs(b[i])})) return false;
  }
  return true;
}

// The pixel window [x, y, w, h] that `bbox` touches on a north-up grid.
Result<std::array<int64_t, 4>> BboxWindow(const std::array<double, 4>& bbox, const std::array<double, 6>& gt,
                                          int64_t width, int64_t height) {
  if (gt[2] != 0 || gt[4] != 0) return Status::InvalidArgument("bbox on a rotated grid");
  const double x_a = (bbox[0] - gt[0]) / gt[1], x_b = (bbox[2] - gt[0]) / gt[1];
  const double y_a = (bbox[3] - gt[3]) / gt[5], y_b = (bbox[1] - gt[3]) / gt[5];
  const double x0 = std::max(0.0, std::floor(std::min(x_a, x_b)));
  const double x1 = std::min(static_cast<double>(width), std::ceil(std::max(x_a, x_b)));
  const double y0 = std::max(0.0, std::floor(std::min(y_a, y_b)));
  const double y1 = std::min(static_cast<double>(height), std::ceil(std::max(y_a, y_b)));
  if (!(x1 > x0 && y1 > y0)) return Status::InvalidArgument("bbox does not overlap the raster");
  return std::array<int64_t, 4>{static_cast<int64_t>(x0), static_cast<int64_t>(y0), static_cast<int64_t>(x1 - x0),
                                static_cast<int64_t>(y1 - y0)};
}

// Sentinel-2 L2A's BOA_ADD_OFFSET in DN for `ds`: from processing baseline 04.00 on, the
// metadata's value (−1000 when it gives none); 0 before that or without a baseline.
double BoaAddOffset(GDALDataset& ds) {
  const char* baseline = ds.GetMetadataItem("PROCESSING_BASELINE");
  if (baseline == nullptr || std::strtod(baseline, nullptr) < 4.0) return 0;
  const char* offset = ds.GetMetadataItem("BOA_ADD_OFFSET");
  return offset != nullptr ? std::strtod(offset, nullptr) : -1000.0;
}

}  // namespace

Result<RasterRef> OpenRaster(const OpenOptions& options) {
  RETURN_NOT_OK(options.Validate());
  GdalThreadScope scope(options.config);
  std::map<std::string, std::unique_ptr<GDALDataset>> datasets;
  std::vector<Level> levels;
  for (const BandSource& s : options.bands) {
    auto& ds = datasets[s.dataset];
    if (ds == nullptr) {
      ASSIGN_OR_RETURN(ds, OpenDataset(s.dataset));
    }
    ASSIGN_OR_RETURN(Level level, FindLevel(*ds, s, options.overview));
    levels.push_back(level);
  }
  const BandSource& grid_source = options.bands[static_cast<size_t>(options.grid_band)];
  const Level& grid = levels[static_cast<size_t>(options.grid_band)];
  const int64_t width = grid.band->GetXSize();
  const int64_t height = grid.band->GetYSize();
  if (width < 1 || height < 1 || width > options.max_pixels / height) {
    return Status::DataError(fmt::format("{}: declares {} × {} pixels, more than max_pixels ({})",
                                         BandLabel(grid_source), width, height, options.max_pixels))
        .WithFile(grid_source.dataset);
  }
  if (grid.srs == nullptr && !options.allow_missing_crs) {
    return Status::DataError(fmt::format("{}: the dataset has no CRS GDAL understands", BandLabel(grid_source)))
        .WithFile(grid_source.dataset);
  }
  std::array<int64_t, 4> window{0, 0, width, height};
  if (options.window) window = *options.window;
  if (options.bbox) {
    ASSIGN_OR_RETURN(window, BboxWindow(*options.bbox, grid.transform, width, height));
  }
  if (window[0] + window[2] > width || window[1] + window[3] > height) {
    return Status::InvalidArgument(fmt::format("window {},{} {}×{} is outside the {}×{} grid of {}", window[0],
                                               window[1], window[2], window[3], width, height,
                                               grid_source.dataset));
  }
  RasterRef ref;
  ref.width = window[2];
  ref.height = window[3];
  const auto& gt = grid.transform;
  ref.transform = {gt[0] + window[0] * gt[1] + window[1] * gt[2], gt[1], gt[2],
                   gt[3] + window[0] * gt[4] + window[1] * gt[5], gt[4], gt[5]};
  if (grid.srs != nullptr) ref.crs = Wkt2Of(*grid.srs);
  for (size_t i = 0; i < options.bands.size(); ++i) {
    const BandSource& s = options.bands[i];
    const Level& level = levels[i];
    GDALRasterBand* band = level.band;
    if (band->GetXSize() != width || band->GetYSize() != height || !SameTransform(level.transform, grid.transform)) {
      return Status::DataError(fmt::format("{}: its grid ({}×{}, origin {}, {}, pixel {} × {}) differs from {}'s "
                                           "({}×{}, origin {}, {}, pixel {} × {}); bands must share one grid",
                                           BandLabel(s), band->GetXSize(), band->GetYSize(), level.transform[0],
                                           level.transform[3], level.transform[1], level.transform[5],
                                           grid_source.name, width, height, gt[0], gt[3], gt[1], gt[5]))
          .WithFile(s.dataset);
    }
    if ((level.srs == nullptr) != (grid.srs == nullptr) ||
        (level.srs != nullptr && !level.srs->IsSame(grid.srs))) {
      return Status::DataError(fmt::format("{}: its CRS differs from {}'s", BandLabel(s), grid_source.name))
          .WithFile(s.dataset);
    }
    const GDALDataType type = band->GetRasterDataType();
    if (GDALDataTypeIsComplex(type) || type == GDT_Unknown) {
      return Status::DataError(fmt::format("{}: type {} is not a real number type", BandLabel(s),
                                           GDALGetDataTypeName(type)))
          .WithFile(s.dataset);
    }
    BandRef b;
    b.name = s.name;
    b.dataset = s.dataset;
    b.band = level.index;
    b.overview = options.overview;
    b.type = GDALGetDataTypeName(type);
    b.x0 = window[0];
    b.y0 = window[1];
    band->GetBlockSize(&b.block_width, &b.block_height);
    int has_nodata = 0;
    const double nodata = band->GetNoDataValue(&has_nodata);
    if (has_nodata) b.nodata = nodata;
    if (s.nodata) b.nodata = s.nodata;
    b.scale = s.scale;
    b.offset = s.offset;
    if (s.sentinel2_boa_offset) {
      b.offset += BoaAddOffset(*datasets[s.dataset]) * s.scale;
      if (!b.nodata) b.nodata = 0;
    }
    ref.bands.push_back(std::move(b));
  }
  return ref;
}

}  // namespace recflow::raster
