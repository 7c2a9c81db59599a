// Built-in raster step raster_stats: one row per band of each raster with its valid count, min, max, mean and std.
#include "recflow/pipeline/builtin_steps_internal.h"
#include "recflow/pipeline/raster_step_args.h"
#include "recflow/raster/raster_plugin.h"

namespace recflow::pipeline {
namespace {

Result<std::optional<PCollection>> BuildRasterStats(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  ASSIGN_OR_RETURN(std::string column, a.String("column", "raster"));
  ASSIGN_OR_RETURN(const int index, InputColumn(ctx, "column", column));
  ASSIGN_OR_RETURN(raster::GdalConfig step_config, ConfigArg(a));
  ASSIGN_OR_RETURN(const raster::RasterApi* gdal, raster::RasterPlugin());
  auto fn = [=](const RowView& row, RowEmitter& out) -> Status {
    ASSIGN_OR_RETURN(raster::RasterRef ref, RowRaster(row, index));
    ASSIGN_OR_RETURN(raster::GdalConfig config, ReadConfig(ref, step_config));
    ASSIGN_OR_RETURN(std::vector<raster::ValueStats> stats,
                     gdal->compute_raster_stats(ref, config, row.run_files().stop_token()));
    for (size_t b = 0; b < stats.size(); ++b) {
      // A computed raster's one band is named by its expression.
      std::string band = ref.expression.empty() ? ref.bands[b].name : ref.expression;
      const raster::ValueStats& s = stats[b];
      out.Emit({std::move(band), s.count(), s.min(), s.max(), s.mean(), s.std()});
    }
    return Status::OK();
  };
  return ctx.pipeline->MapRows(ctx.name, ctx.input(),
                               {Field::Make("band", utf8(), false), Field::Make("valid_count", int64(), false),
                                Field::Make("min", float64()), Field::Make("max", float64()),
                                Field::Make("mean", float64()), Field::Make("std", float64())},
                               fn, ctx.options);
}

}  // namespace

void AddRasterStatsSteps(StepRegistry* registry) {
  (void)registry->Add(StepType{"raster_stats",
                               "one row per band of each raster: band, valid_count, min, max, mean, std (exact, "
                               "computed tile by tile on all threads)",
                               "column", 1, 1, BuildRasterStats});
}

}  // namespace recflow::pipeline
