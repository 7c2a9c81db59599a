// MosaicRasters: the common grid over every raster's footprint, each raster placed on it (or warped onto its part), one VRT per band, painted or picked.
#include "recflow/raster/mosaic_raster.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gdal_priv.h>
#include <ogr_spatialref.h>

#include "recflow/raster/expression.h"
#include "recflow/raster/gdal_dataset.h"
#include "recflow/raster/mosaic_pick.h"

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

// Band `band` of a placed raster as a VRT source: its pixels at its place, its nodata left unpainted.
std::string SourceXml(const Placed& p, size_t band) {
  const BandRef& b = p.ref.bands[band];
  return fmt::format(
      "<ComplexSource><SourceFilename relativeToVRT=\"0\">{}</SourceFilename><SourceBand>{}</SourceBand>"
      "<SrcRect xOff=\"{}\" yOff=\"{}\" xSize=\"{}\" ySize=\"{}\"/>"
      "<DstRect xOff=\"{}\" yOff=\"{}\" xSize=\"{}\" ySize=\"{}\"/>{}</ComplexSource>",
      Escape(b.dataset), b.band, b.x0, b.y0, p.ref.width, p.ref.height, p.x, p.y, p.ref.width, p.ref.height,
      b.nodata ? fmt::format("<NODATA>{}</NODATA>", *b.nodata) : "");
}

// What max, min and max_ndvi compare per pixel: an expression over some bands (max_ndvi's NDVI, a computed
// raster's expression), or, with no expression, each band's own value.
struct PickKey {
  std::string expression;
  std::vector<size_t> bands;
};

Result<PickKey> KeyOf(const RasterRef& first, const MosaicOptions& options) {
  PickKey key;
  if (options.rule == MosaicRule::kMaxNdvi) {
    key.expression = NdviExpression(options.red, options.nir);
  } else if (!first.expression.empty()) {
    key.expression = first.expression;
  } else {
    return key;
  }
  std::vector<std::string> names;
  for (const BandRef& b : first.bands) names.push_back(b.name);
  auto compiled = Expression::Compile(key.expression, names);
  if (!compiled.ok()) {
    return Status::DataError(fmt::format("mosaic: cannot compute '{}' over the rasters' bands: {}", key.expression,
                                         compiled.status().message()))
        .WithFile(DatasetFile(first.bands.front().dataset));
  }
  for (const int i : compiled->used_bands()) key.bands.push_back(static_cast<size_t>(i));
  return key;
}

// The band element of a max / min / max_ndvi mosaic: the pick pixel function over, for each raster, band
// `band` and then the key's bands.
std::string PickBandXml(const std::vector<Placed>& placed, size_t band, const PickKey& key, MosaicRule rule,
                        double nodata) {
  const BandRef& first = placed.front().ref.bands[band];
  std::string args = fmt::format("rule=\"{}\" nodata=\"{}\" scale=\"{}\" keys=\"{}\"",
                                 rule == MosaicRule::kMin ? "min" : "max", nodata, first.scale, key.bands.size());
  if (!key.bands.empty()) args += fmt::format(" key=\"{}\"", Escape(key.expression));
  for (size_t j = 0; j < key.bands.size(); ++j) {
    const BandRef& k = placed.front().ref.bands[key.bands[j]];
    args += fmt::format(" key_name_{0}=\"{1}\" key_scale_{0}=\"{2}\" key_offset_{0}=\"{3}\"", j, Escape(k.name),
                        k.scale, k.offset);
  }
  std::string xml = fmt::format(
      "<VRTRasterBand dataType=\"{}\" band=\"1\" subClass=\"VRTDerivedRasterBand\"><NoDataValue>{}</NoDataValue>"
      "<PixelFunctionType>{}</PixelFunctionType><PixelFunctionArguments {}/>"
      "<SourceTransferType>Float64</SourceTransferType>",
      first.type, nodata, kMosaicPickFunction, args);
  for (const Placed& p : placed) {
    xml += SourceXml(p, band);
    for (const size_t k : key.bands) xml += SourceXml(p, k);
  }
  return xml + "</VRTRasterBand>";
}

// Band `band` of the mosaic as a VRT: every placed raster's band painted in `order` (first, last), or picked per
// pixel by `key` (max, min, max_ndvi).
Result<BandRef> MosaicBand(const std::vector<Placed>& placed, const std::vector<size_t>& order, size_t band,
                           const RasterRef& grid, double nodata, MosaicRule rule, const PickKey& key) {
  const BandRef& first = placed.front().ref.bands[band];
  const auto& t = grid.transform;
  std::string xml = fmt::format(
      "<VRTDataset rasterXSize=\"{}\" rasterYSize=\"{}\"><SRS>{}</SRS>"
      "<GeoTransform>{}, {}, {}, {}, {}, {}</GeoTransform>",
      grid.width, grid.height, Escape(grid.crs), t[0], t[1], t[2], t[3], t[4], t[5]);
  if (rule == MosaicRule::kFirst || rule == MosaicRule::kLast) {
    xml += fmt::format("<VRTRasterBand dataType=\"{}\" band=\"1\"><NoDataValue>{}</NoDataValue>", first.type, nodata);
    for (const size_t i : order) xml += SourceXml(placed[i], band);
    xml += "</VRTRasterBand>";
  } else {
    xml += PickBandXml(placed, band, key, rule, nodata);
  }
  xml += "</VRTDataset>";
  std::unique_ptr<GDALDataset> vrt(GDALDataset::Open(xml.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY));
  if (vrt == nullptr) return GdalError(DatasetFile(first.dataset), "cannot make the mosaic's VRT");
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
  const std::string file = r.bands.empty() ? std::string() : DatasetFile(r.bands.front().dataset);
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
        .WithFile(DatasetFile(first.bands.front().dataset));
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
              .WithFile(DatasetFile(band.dataset));
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
  ASSIGN_OR_RETURN(const PickKey key, KeyOf(first, options));
  for (size_t j = 0; j < first.bands.size(); ++j) {
    const std::optional<double> nodata = first.bands[j].nodata ? first.bands[j].nodata : warp.nodata;
    if (!nodata) {
      return Status::DataError(fmt::format("mosaic: band '{}' declares no nodata for the pixels no raster covers; "
                                           "give mosaic a nodata",
                                           first.bands[j].name))
          .WithFile(DatasetFile(first.bands[j].dataset));
    }
    ASSIGN_OR_RETURN(BandRef band, MosaicBand(placed, order, j, out, *nodata, options.rule, key));
    out.bands.push_back(std::move(band));
  }
  return out;
}

}  // namespace recflow::raster
