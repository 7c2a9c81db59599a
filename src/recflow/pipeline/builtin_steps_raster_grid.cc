// Built-in raster steps that move rasters onto another grid: warp (reproject and resample onto a CRS, resolution, extent or
// another raster's grid) and mosaic (a group's rasters merged onto one grid).
#include "recflow/pipeline/builtin_steps_internal.h"
#include "recflow/pipeline/raster_step_args.h"
#include "recflow/raster/gdal_configs.h"
#include "recflow/raster/mosaic_raster.h"
#include "recflow/raster/raster_plugin.h"
#include "recflow/raster/warp_raster.h"

namespace recflow::pipeline {
namespace {

using BuildResult = Result<std::optional<PCollection>>;

// How rasters are warped, whatever the target: resampling [nearest], nodata, error_threshold [0],
// max_pixels [2^36], config.
Status ReadWarpArgs(StepArgs& a, raster::WarpOptions* options) {
  ASSIGN_OR_RETURN(std::string resampling, a.String("resampling", "nearest"));
  auto parsed = raster::ParseResampling(resampling);
  if (!parsed.ok()) return a.Error("resampling", parsed.status().message());
  options->resampling = *parsed;
  if (a.Has("nodata")) {
    ASSIGN_OR_RETURN(options->nodata, a.Double("nodata"));
  }
  ASSIGN_OR_RETURN(options->error_threshold, a.Double("error_threshold", options->error_threshold));
  ASSIGN_OR_RETURN(options->max_pixels, a.Int("max_pixels", options->max_pixels));
  ASSIGN_OR_RETURN(options->config, ConfigArg(a));
  return Status::OK();
}

BuildResult BuildWarp(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  ASSIGN_OR_RETURN(std::string column, a.String("column", "raster"));
  ASSIGN_OR_RETURN(std::string output, a.String("output", column));
  ASSIGN_OR_RETURN(const int index, InputColumn(ctx, "column", column));
  raster::WarpOptions base;
  ASSIGN_OR_RETURN(base.crs, a.String("crs", ""));
  if (a.Has("resolution")) {
    ASSIGN_OR_RETURN(std::vector<double> r, a.DoubleList("resolution"));
    if (r.size() != 1 && r.size() != 2) return a.Error("resolution", "is one number or two (x, y)");
    base.resolution = std::array<double, 2>{r.front(), r.back()};
  }
  ASSIGN_OR_RETURN(base.extent, FourNumbers(a, "extent"));
  RETURN_NOT_OK(ReadWarpArgs(a, &base));
  ASSIGN_OR_RETURN(const raster::RasterApi* gdal, raster::RasterPlugin());
  Status valid = gdal->check_warp_options(base);
  if (!valid.ok()) return a.Error("crs", valid.message());
  ASSIGN_OR_RETURN(std::string like, a.String("like", ""));
  int like_index = -1;
  if (!like.empty()) {
    ASSIGN_OR_RETURN(like_index, InputColumn(ctx, "like", like));
    if (base.HasTarget()) return a.Error("like", "takes the whole grid: no crs, resolution or extent beside it");
  }
  auto fn = [=](const RowView& row, RowEmitter& out) -> Status {
    ASSIGN_OR_RETURN(raster::RasterRef ref, RowRaster(row, index));
    raster::WarpOptions options = base;
    if (like_index >= 0) {
      ASSIGN_OR_RETURN(raster::RasterRef grid, RowRaster(row, like_index));
      options.like = raster::TargetGrid{grid.crs, grid.transform, grid.width, grid.height};
    }
    ASSIGN_OR_RETURN(options.config, ReadConfig(ref, base.config));
    ASSIGN_OR_RETURN(raster::RasterRef warped, gdal->warp_raster(ref, options));
    out.Emit({warped.ToJson()});
    return Status::OK();
  };
  return ctx.pipeline->MapRows(ctx.name, ctx.input(), {Field::Make(output, utf8(), false)}, fn, ctx.options);
}

BuildResult BuildMosaic(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  ASSIGN_OR_RETURN(std::string column, a.String("column", "raster"));
  ASSIGN_OR_RETURN(std::string output, a.String("output", column));
  ASSIGN_OR_RETURN(const int index, InputColumn(ctx, "column", column));
  raster::MosaicOptions base;
  ASSIGN_OR_RETURN(std::string rule, a.String("rule", "first"));
  auto parsed_rule = raster::ParseMosaicRule(rule);
  if (!parsed_rule.ok()) return a.Error("rule", parsed_rule.status().message());
  base.rule = *parsed_rule;
  ASSIGN_OR_RETURN(base.red, a.String("red", base.red));
  ASSIGN_OR_RETURN(base.nir, a.String("nir", base.nir));
  RETURN_NOT_OK(ReadWarpArgs(a, &base.warp));
  ASSIGN_OR_RETURN(const raster::RasterApi* gdal, raster::RasterPlugin());
  Status valid = gdal->check_warp_options(base.warp);
  if (!valid.ok()) return a.Error("resampling", valid.message());
  auto fn = [=](const RowView& row, RowEmitter& out) -> Status {
    ASSIGN_OR_RETURN(std::vector<std::string_view> texts, row.BytesList(index));
    std::vector<raster::RasterRef> rasters;
    for (const std::string_view text : texts) {
      ASSIGN_OR_RETURN(raster::RasterRef ref, raster::RasterRef::FromJson(text));
      rasters.push_back(std::move(ref));
    }
    raster::MosaicOptions options = base;
    if (!rasters.empty()) {
      // Every raster's configuration, merged: the mosaic (and its VRT's reads of each raster) takes it.
      std::vector<std::string> names;
      for (const raster::RasterRef& r : rasters) names.push_back(r.config);
      ASSIGN_OR_RETURN(rasters.front().config, raster::MergeGdalConfigs(names));
      ASSIGN_OR_RETURN(options.warp.config, ReadConfig(rasters.front(), base.warp.config));
    }
    ASSIGN_OR_RETURN(raster::RasterRef mosaic, gdal->mosaic_rasters(rasters, options));
    out.Emit({mosaic.ToJson()});
    return Status::OK();
  };
  return ctx.pipeline->MapRows(ctx.name, ctx.input(), {Field::Make(output, utf8(), false)}, fn, ctx.options);
}

}  // namespace

void AddRasterGridSteps(StepRegistry* registry) {
  (void)registry->Add(StepType{"warp",
                               "a raster reprojected and resampled onto a CRS, resolution, extent or another raster's "
                               "grid (gdalwarp's grid, read tile by tile)",
                               "crs", 1, 1, BuildWarp});
  (void)registry->Add(StepType{"mosaic",
                               "a list of rasters (a group_by_key's) merged onto one grid: per pixel the first, last, "
                               "largest or smallest valid value, or the raster of largest NDVI",
                               "rule", 1, 1, BuildMosaic});
}

}  // namespace recflow::pipeline
