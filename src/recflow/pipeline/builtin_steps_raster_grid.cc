// Built-in raster steps that move rasters onto another grid: warp (reproject and resample onto a CRS, resolution, extent or
// another raster's grid).
#include "recflow/pipeline/builtin_steps_internal.h"
#include "recflow/pipeline/raster_step_args.h"
#include "recflow/raster/warp_raster.h"

namespace recflow::pipeline {
namespace {

using BuildResult = Result<std::optional<PCollection>>;

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
  ASSIGN_OR_RETURN(std::string resampling, a.String("resampling", "nearest"));
  auto parsed = raster::ParseResampling(resampling);
  if (!parsed.ok()) return a.Error("resampling", parsed.status().message());
  base.resampling = *parsed;
  if (a.Has("nodata")) {
    ASSIGN_OR_RETURN(base.nodata, a.Double("nodata"));
  }
  ASSIGN_OR_RETURN(base.error_threshold, a.Double("error_threshold", base.error_threshold));
  ASSIGN_OR_RETURN(base.max_pixels, a.Int("max_pixels", base.max_pixels));
  ASSIGN_OR_RETURN(base.config, ConfigArg(a));
  ASSIGN_OR_RETURN(std::string like, a.String("like", ""));
  int like_index = -1;
  if (!like.empty()) {
    ASSIGN_OR_RETURN(like_index, InputColumn(ctx, "like", like));
    base.like = raster::TargetGrid{"x", {0, 1, 0, 0, 0, -1}, 1, 1};  // checked with the options; set per row
  }
  Status valid = base.Validate();
  if (!valid.ok()) return a.Error(like.empty() ? "crs" : "like", valid.message());
  auto fn = [=](const RowView& row, RowEmitter& out) -> Status {
    ASSIGN_OR_RETURN(raster::RasterRef ref, RowRaster(row, index));
    raster::WarpOptions options = base;
    if (like_index >= 0) {
      ASSIGN_OR_RETURN(raster::RasterRef grid, RowRaster(row, like_index));
      options.like = raster::TargetGrid{grid.crs, grid.transform, grid.width, grid.height};
    }
    ASSIGN_OR_RETURN(raster::RasterRef warped, raster::WarpRaster(ref, options));
    out.Emit({warped.ToJson()});
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
}

}  // namespace recflow::pipeline
