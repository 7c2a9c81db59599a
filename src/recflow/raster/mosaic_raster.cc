// MosaicRasters: the common grid over every raster's footprint, each raster placed on it (or warped onto its part), one VRT per band.
#include "recflow/raster/mosaic_raster.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gdal_priv.h>
#include <ogr_spatialref.h>

namespace recflow::raster {
namespace {

// A raster on the mosaic's grid with its first pixel at column x, row y.
struct Placed {
  RasterRef ref;
  int64_t x = 0;
  int64_t y = 0;
};

bool SameCrs(const std::string& a, const std::string& b) {
  if (a == b) return true;
  OGRSpatialReference sa, sb;
  return sa.importFromWkt(a.c_str()) == OGRERR_NONE && sb.importFromWkt(b.c_str()) == OGRERR_NONE && sa.IsSame(&sb);
}

bool Near(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)}); }

// Min x, min y, max x, max y of a north-up grid.
std::array<double, 4> Bounds(const std::array<double, 6>& t, int64_t width, int64_t height) {
  return {t[0], t[3] + height * t[5], t[0] + width * t[1], t[3]};
}

std::string Escape(const std::string& text) {
  char* escaped = CPLEscapeString(text.c_str(), static_cast<int>(text.size()), CPLES_XML);
  std::string out = escaped;
  CPLFree(escaped);
  return out;
}

// Band `band` of the mosaic as a VRT: every placed raster's band painted in `order`.
Result<BandRef> MosaicBand(const std::vector<Placed>& placed, const std::vector<size_t>& order, size_t band,
                           const RasterRef& grid, std::optional<double> nodata) {
  const BandRef& first = placed.front().ref.bands[band];
  const auto& t = grid.transform;
  std::string xml = fmt::format(
      "<VRTDataset rasterXSize=\"{}\" rasterYSize=\"{}\"><SRS>{}</SRS>"
      "<GeoTransform>{}, {}, {}, {}, {}, {}</GeoTransform>"
      "<VRTRasterBand dataType=\"{}\" band=\"1\"><NoDataValue>{}</NoDataValue>",
      grid.width, grid.height, Escape(grid.crs), t[0], t[1], t[2], t[3], t[4], t[5], first.type, *nodata);
  for (const size_t i : order) {
    const Placed& p = placed[i];
    const BandRef& b = p.ref.bands[band];
    xml += fmt::format(
        "<ComplexSource><SourceFilename relativeToVRT=\"0\">{}</SourceFilename><SourceBand>{}</SourceBand>"
        "<SrcRect xOff=\"{}\" yOff=\"{}\" xSize=\"{}\" ySize=\"{}\"/>"
        "<DstRect xOff=\"{}\" yOff=\"{}\" xSize=\"{}\" ySize=\"{}\"/>{}</ComplexSource>",
        Escape(b.dataset), b.band, b.x0, b.y0, p.ref.width, p.ref.height, p.x, p.y, p.ref.width, p.ref.height,
        b.nodata ? fmt::format("<NODATA>{}</NODATA>", *b.nodata) : "");
  }
  xml += "</VRTRasterBand></VRTDataset>";
  std::unique_ptr<GDALDataset> vrt(GDALDataset::Open(xml.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY));
  if (vrt == nullptr) return GdalError(first.dataset, "cannot make the mosaic's VRT");
  BandRef out = first;
  out.dataset = std::move(xml);
  out.band = 1;
  out.overview = -1;
  out.x0 = 0;
  out.y0 = 0;
  out.nodata = nodata;
  vrt->GetRasterBand(1)->GetBlockSize(&out.block_width, &out.block_height);
  return out;
}

// Why `r` (the raster at `index`) cannot join a mosaic of `first`'s bands, or OK.
Status CheckLike(const RasterRef& first, const RasterRef& r, size_t index) {
  const std::string& file = r.bands.empty() ? std::string() : r.bands.front().dataset;
  auto refuse = [&](const std::string& what) {
    return Status::DataError(fmt::format("mosaic: raster {} {}", index, what)).WithFile(file);
  };
  if (r.transform[2] != 0 || r.transform[4] != 0) return refuse("has a rotated grid");
  if (r.crs.empty()) return refuse("has no CRS");
  if (r.expression != first.expression) {
    return refuse("is computed differently ('" + r.expression + "' vs '" + first.expression + "')");
  }
  if (r.bands.size() != first.bands.size()) return refuse("has another number of bands than raster 0");
  for (size_t j = 0; j < r.bands.size(); ++j) {
    const BandRef& a = first.bands[j];
    const BandRef& b = r.bands[j];
    if (a.name != b.name) return refuse(fmt::format("has band '{}' where raster 0 has '{}'", b.name, a.name));
    if (a.type != b.type || a.scale != b.scale || a.offset != b.offset) {
      return refuse(fmt::format("band '{}' is stored or scaled differently from raster 0's ({} × {} + {} vs {} × {} + {})",
                                b.name, b.type, b.scale, b.offset, a.type, a.scale, a.offset));
    }
  }
  return Status::OK();
}

}  // namespace

Result<RasterRef> MosaicRasters(std::span<const RasterRef> rasters, const MosaicOptions& options) {
  if (rasters.empty()) return Status::DataError("mosaic: no rasters");
  const RasterRef& first = rasters.front();
  if (first.bands.empty()) return Status::DataError("not a raster value: no bands");
  for (size_t i = 0; i < rasters.size(); ++i) RETURN_NOT_OK(CheckLike(first, rasters[i], i));
  const WarpOptions& warp = options.warp;
  GdalThreadScope scope(warp.config);
  const auto& t = first.transform;
  const double dx = t[1], dy = t[5];
  // Each raster on the first one's grid (aligned: same CRS, pixel size and whole-pixel offset, full
  // resolution), or its footprint there, from the grid gdalwarp makes for it at that pixel size.
  std::vector<bool> aligned(rasters.size());
  std::vector<std::array<double, 4>> bounds(rasters.size());
  for (size_t i = 0; i < rasters.size(); ++i) {
    const RasterRef& r = rasters[i];
    const double fx = (r.transform[0] - t[0]) / dx, fy = (r.transform[3] - t[3]) / dy;
    aligned[i] = SameCrs(r.crs, first.crs) && Near(r.transform[1], dx) && Near(r.transform[5], dy) &&
                 std::fabs(fx - std::round(fx)) < 1e-6 && std::fabs(fy - std::round(fy)) < 1e-6 &&
                 std::all_of(r.bands.begin(), r.bands.end(), [](const BandRef& b) { return b.overview < 0; });
    if (aligned[i]) {
      bounds[i] = Bounds(r.transform, r.width, r.height);
      continue;
    }
    WarpOptions footprint = warp;
    footprint.crs = first.crs;
    footprint.resolution = std::array<double, 2>{std::fabs(dx), std::fabs(dy)};
    ASSIGN_OR_RETURN(const TargetGrid grid, WarpGrid(r, footprint));
    bounds[i] = Bounds(grid.transform, grid.width, grid.height);
  }
  // The union, widened to whole pixels of the first raster's alignment.
  auto column = [&](double x, bool up) {
    const double c = (x - t[0]) / dx;
    return static_cast<int64_t>(up ? std::ceil(c - 1e-6) : std::floor(c + 1e-6));
  };
  auto row = [&](double y, bool up) {
    const double c = (y - t[3]) / dy;
    return static_cast<int64_t>(up ? std::ceil(c - 1e-6) : std::floor(c + 1e-6));
  };
  int64_t col0 = INT64_MAX, col1 = INT64_MIN, row0 = INT64_MAX, row1 = INT64_MIN;
  for (const auto& b : bounds) {
    col0 = std::min(col0, column(b[0], false));
    col1 = std::max(col1, column(b[2], true));
    row0 = std::min(row0, row(b[3], false));
    row1 = std::max(row1, row(b[1], true));
  }
  RasterRef out;
  out.crs = first.crs;
  out.expression = first.expression;
  out.config = first.config;
  out.width = col1 - col0;
  out.height = row1 - row0;
  out.transform = {t[0] + col0 * dx, dx, 0, t[3] + row0 * dy, 0, dy};
  if (out.width < 1 || out.height < 1 || out.width > warp.max_pixels / out.height) {
    return Status::DataError(fmt::format("mosaic: the grid is {} × {} pixels, more than max_pixels ({})", out.width,
                                         out.height, warp.max_pixels))
        .WithFile(first.bands.front().dataset);
  }
  std::vector<Placed> placed;
  for (size_t i = 0; i < rasters.size(); ++i) {
    const auto& b = bounds[i];
    Placed p;
    p.x = column(b[0], false) - col0;
    p.y = row(b[3], false) - row0;
    if (aligned[i]) {
      p.ref = rasters[i];
    } else {
      for (const BandRef& band : rasters[i].bands) {
        if (!band.nodata && !warp.nodata) {
          return Status::DataError(fmt::format("mosaic: raster {} is off the grid and its band '{}' declares no "
                                               "nodata for the pixels around it; give mosaic a nodata",
                                               i, band.name))
              .WithFile(band.dataset);
        }
      }
      WarpOptions onto = warp;
      onto.like = TargetGrid{first.crs, {out.transform[0] + p.x * dx, dx, 0, out.transform[3] + p.y * dy, 0, dy},
                             column(b[2], true) - col0 - p.x, row(b[1], true) - row0 - p.y};
      ASSIGN_OR_RETURN(p.ref, WarpRaster(rasters[i], onto));
    }
    placed.push_back(std::move(p));
  }
  // Sources are painted in order, the last one over the others: `first` paints the rasters backwards.
  std::vector<size_t> order(placed.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (options.rule == MosaicRule::kFirst) std::reverse(order.begin(), order.end());
  for (size_t j = 0; j < first.bands.size(); ++j) {
    const std::optional<double> nodata = first.bands[j].nodata ? first.bands[j].nodata : warp.nodata;
    if (!nodata) {
      return Status::DataError(fmt::format("mosaic: band '{}' declares no nodata for the pixels no raster covers; "
                                           "give mosaic a nodata",
                                           first.bands[j].name))
          .WithFile(first.bands[j].dataset);
    }
    ASSIGN_OR_RETURN(BandRef band, MosaicBand(placed, order, j, out, nodata));
    out.bands.push_back(std::move(band));
  }
  return out;
}

}  // namespace recflow::raster
