// WarpRaster: the target grid computed by GDAL's gdalwarp logic on a pixel-less proxy of the source grid, then one warped VRT per source dataset.
#include "recflow/raster/warp_raster.h"

#include <cmath>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <gdal_priv.h>
#include <gdal_utils.h>
#include <ogr_spatialref.h>

#include "recflow/raster/gdal_dataset.h"

namespace recflow::raster {
namespace {

struct DatasetCloser {
  void operator()(GDALDataset* ds) const { GDALClose(ds); }
};
using DatasetPtr = std::unique_ptr<GDALDataset, DatasetCloser>;

std::string Number(double v) { return fmt::format("{}", v); }

const char* ResamplingName(Resampling r) {
  switch (r) {
    case Resampling::kNearest: return "near";
    case Resampling::kBilinear: return "bilinear";
    case Resampling::kCubic: return "cubic";
    case Resampling::kAverage: return "average";
  }
  return "near";
}

// `srs` as WKT2 (what a RasterRef holds), or empty for a dataset without one.
std::string Wkt2(const OGRSpatialReference* srs) { return srs != nullptr ? Wkt2Of(*srs) : ""; }

// Runs gdalwarp with `args` (plus -of VRT) on `source` into an in-memory warped VRT.
Result<DatasetPtr> WarpToVrt(GDALDataset* source, std::vector<std::string> args, const std::string& file) {
  args.insert(args.begin(), {"-of", "VRT"});
  CPLStringList argv;
  for (const std::string& arg : args) argv.AddString(arg.c_str());
  GDALWarpAppOptions* options = GDALWarpAppOptionsNew(argv.List(), nullptr);
  if (options == nullptr) return GdalError(DatasetFile(file), "cannot warp (bad options)");
  GDALDatasetH handle = GDALDataset::ToHandle(source);
  int usage_error = 0;
  DatasetPtr out(GDALDataset::FromHandle(GDALWarp("", nullptr, 1, &handle, options, &usage_error)));
  GDALWarpAppOptionsFree(options);
  if (out == nullptr) return GdalError(DatasetFile(file), "cannot warp");
  return out;
}

// gdalwarp's target options other than the grid's size: -t_srs, -tr, -te, -r.
std::vector<std::string> TargetArgs(const WarpOptions& options) {
  std::vector<std::string> args{"-r", ResamplingName(options.resampling)};
  if (!options.crs.empty()) args.insert(args.end(), {"-t_srs", options.crs});
  if (options.resolution) {
    args.insert(args.end(), {"-tr", Number((*options.resolution)[0]), Number((*options.resolution)[1])});
  }
  if (options.extent) {
    for (const double v : *options.extent) args.push_back(Number(v));
    args.insert(args.end() - 4, "-te");
  }
  return args;
}

// A VRT of `ref`'s size, geotransform and CRS without pixel sources: what gdalwarp computes grids
// from, read nothing from.
Result<DatasetPtr> ProxyOf(const RasterRef& ref) {
  const std::string file = DatasetFile(ref.bands.front().dataset);
  if (ref.crs.empty()) return Status::DataError("warp needs the raster's CRS; it has none").WithFile(file);
  if (ref.width > INT32_MAX || ref.height > INT32_MAX) {
    return Status::DataError("the raster is too large for GDAL's warper").WithFile(file);
  }
  GDALDriver* vrt = GetGDALDriverManager()->GetDriverByName("VRT");
  if (vrt == nullptr) return GdalError(file, "GDAL has no VRT driver");
  DatasetPtr proxy(vrt->Create("", static_cast<int>(ref.width), static_cast<int>(ref.height), 1, GDT_Byte, nullptr));
  if (proxy == nullptr) return GdalError(file, "cannot make the source grid");
  std::array<double, 6> gt = ref.transform;
  proxy->SetGeoTransform(gt.data());
  if (proxy->SetProjection(ref.crs.c_str()) != CE_None) return GdalError(file, "the raster's CRS");
  return proxy;
}

// The grid gdalwarp makes from `proxy` (ProxyOf(ref)) and the options, or `like`.
Result<TargetGrid> GridOf(GDALDataset* proxy, const RasterRef& ref, const WarpOptions& options) {
  if (options.like) return *options.like;
  ASSIGN_OR_RETURN(DatasetPtr grid, WarpToVrt(proxy, TargetArgs(options), ref.bands.front().dataset));
  TargetGrid out;
  grid->GetGeoTransform(out.transform.data());
  out.width = grid->GetRasterXSize();
  out.height = grid->GetRasterYSize();
  out.crs = Wkt2(grid->GetSpatialRef());
  return out;
}

// The target grid and the resampling kernel's scale (source pixels per target pixel, x and y).
struct Target {
  TargetGrid grid;
  std::array<double, 2> scale{1, 1};
};

// The grid gdalwarp makes from `ref`'s grid and the options (or `like`'s), and the kernel's scale
// for the whole grid: the source's own resolution in the target CRS (gdalwarp's suggestion with no
// resolution) over the target's. gdalwarp computes the scale per chunk of its work, so a block of a
// warped VRT would resample differently from its neighbours; one scale for the grid makes every block
// (and gdalwarp given the same XSCALE/YSCALE) agree.
Result<Target> ComputeTarget(const RasterRef& ref, const WarpOptions& options) {
  const std::string file = DatasetFile(ref.bands.front().dataset);
  ASSIGN_OR_RETURN(DatasetPtr proxy, ProxyOf(ref));
  Target target;
  ASSIGN_OR_RETURN(target.grid, GridOf(proxy.get(), ref, options));
  ASSIGN_OR_RETURN(DatasetPtr natural, WarpToVrt(proxy.get(), {"-t_srs", target.grid.crs}, file));
  std::array<double, 6> gt{};
  natural->GetGeoTransform(gt.data());
  target.scale = {std::fabs(gt[1] / target.grid.transform[1]), std::fabs(gt[5] / target.grid.transform[5])};
  return target;
}

}  // namespace

Status WarpOptions::Validate() const {
  if (like) {
    if (HasTarget()) return Status::InvalidArgument("like takes the whole grid: no crs, resolution or extent beside it");
    if (like->transform[2] != 0 || like->transform[4] != 0) return Status::InvalidArgument("like: a rotated grid");
    if (like->width < 1 || like->height < 1 || like->width > INT32_MAX || like->height > INT32_MAX) {
      return Status::InvalidArgument("like: an empty or too large grid");
    }
    if (like->crs.empty()) return Status::InvalidArgument("like: a grid without a CRS");
  }
  if (!crs.empty()) {
    OGRSpatialReference srs;
    if (srs.SetFromUserInput(crs.c_str()) != OGRERR_NONE) {
      return Status::InvalidArgument("crs '" + crs.substr(0, 80) + "' is not a CRS GDAL knows");
    }
  }
  if (resolution && !((*resolution)[0] > 0 && (*resolution)[1] > 0 && std::isfinite((*resolution)[0]) &&
                      std::isfinite((*resolution)[1]))) {
    return Status::InvalidArgument("resolution must be positive");
  }
  if (extent && !((*extent)[2] > (*extent)[0] && (*extent)[3] > (*extent)[1])) {
    return Status::InvalidArgument("extent is min x, min y, max x, max y with max > min");
  }
  if (!(error_threshold >= 0 && error_threshold <= 10)) {
    return Status::InvalidArgument("error_threshold is 0 (exact) to 10 pixels");
  }
  if (max_pixels < 1) return Status::InvalidArgument("max_pixels must be positive");
  return Status::OK();
}

Result<TargetGrid> WarpGrid(const RasterRef& ref, const WarpOptions& options) {
  RETURN_NOT_OK(options.Validate());
  if (ref.bands.empty()) return Status::DataError("not a raster value: no bands");
  GdalThreadScope scope(options.config);
  ASSIGN_OR_RETURN(DatasetPtr proxy, ProxyOf(ref));
  return GridOf(proxy.get(), ref, options);
}

Result<RasterRef> WarpRaster(const RasterRef& ref, const WarpOptions& options) {
  RETURN_NOT_OK(options.Validate());
  if (ref.bands.empty()) return Status::DataError("not a raster value: no bands");
  GdalThreadScope scope(options.config);
  ASSIGN_OR_RETURN(Target target, ComputeTarget(ref, options));
  const TargetGrid& grid = target.grid;
  const std::string first = DatasetFile(ref.bands.front().dataset);
  if (grid.width < 1 || grid.height < 1 || grid.width > options.max_pixels / grid.height) {
    return Status::DataError(fmt::format("the warped grid is {} × {} pixels, more than max_pixels ({})", grid.width,
                                         grid.height, options.max_pixels))
        .WithFile(first);
  }
  const auto& gt = grid.transform;
  const std::vector<std::string> grid_args{
      "-t_srs", grid.crs,
      "-te", Number(gt[0]), Number(gt[3] + grid.height * gt[5]), Number(gt[0] + grid.width * gt[1]), Number(gt[3]),
      "-ts", std::to_string(grid.width), std::to_string(grid.height),
      "-r", ResamplingName(options.resampling),
      "-et", Number(options.error_threshold),
      "-wo", "XSCALE=" + Number(target.scale[0]), "-wo", "YSCALE=" + Number(target.scale[1])};
  RasterRef out;
  out.expression = ref.expression;
  out.config = ref.config;
  // One warped VRT per source dataset, level and nodata: bands sharing them share it.
  struct Warped {
    std::string xml;
    std::optional<double> nodata;
    int block_width = 0;
    int block_height = 0;
  };
  std::map<std::tuple<std::string, int, std::string>, Warped> vrts;
  for (const BandRef& b : ref.bands) {
    std::vector<std::string> args = grid_args;
    std::optional<double> nodata = b.nodata ? b.nodata : options.nodata;
    if (b.nodata) args.insert(args.end(), {"-srcnodata", Number(*b.nodata)});
    if (nodata) args.insert(args.end(), {"-dstnodata", Number(*nodata)});
    if (b.overview >= 0) args.insert(args.end(), {"-ovr", std::to_string(b.overview)});
    auto key = std::make_tuple(b.dataset, b.overview, nodata ? Number(*nodata) : "");
    auto it = vrts.find(key);
    if (it == vrts.end()) {
      ASSIGN_OR_RETURN(std::unique_ptr<GDALDataset> source, OpenDataset(b.dataset));
      ASSIGN_OR_RETURN(DatasetPtr warped, WarpToVrt(source.get(), args, b.dataset));
      char** xml = warped->GetMetadata("xml:VRT");
      if (xml == nullptr || xml[0] == nullptr) return GdalError(DatasetFile(b.dataset), "cannot describe the warped VRT");
      if (out.bands.empty()) {
        warped->GetGeoTransform(out.transform.data());
        out.width = warped->GetRasterXSize();
        out.height = warped->GetRasterYSize();
        out.crs = Wkt2(warped->GetSpatialRef());
      }
      Warped entry{xml[0], nodata};
      warped->GetRasterBand(1)->GetBlockSize(&entry.block_width, &entry.block_height);
      it = vrts.emplace(key, std::move(entry)).first;
    }
    BandRef w = b;
    w.dataset = it->second.xml;
    w.nodata = it->second.nodata;
    w.overview = -1;
    w.x0 = 0;
    w.y0 = 0;
    w.block_width = it->second.block_width;
    w.block_height = it->second.block_height;
    out.bands.push_back(std::move(w));
  }
  return out;
}

}  // namespace recflow::raster
