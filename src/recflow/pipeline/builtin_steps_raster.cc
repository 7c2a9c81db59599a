// Built-in raster steps: read_raster (scene rows → raster values), band_math, evi and ndvi (a computed band over them) and
// write_raster (each raster computed tile by tile on all threads into a staged GeoTIFF or COG the run commits, with its
// statistics as columns).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include <tbb/task_arena.h>

#include "recflow/pipeline/builtin_steps_internal.h"
#include "recflow/pipeline/raster_step_args.h"
#include "recflow/raster/expression.h"
#include "recflow/raster/gdal_configs.h"
#include "recflow/raster/raster_plugin.h"

namespace recflow::pipeline {
namespace {

using BuildResult = Result<std::optional<PCollection>>;

// `column` as a number in `row`, or `fallback` when the column is absent (-1) or null.
Result<double> RowNumber(const RowView& row, int column, double fallback) {
  if (column < 0 || row.IsNull(column)) return fallback;
  ASSIGN_OR_RETURN(RowValue v, row.Get(column));
  if (const auto* i = std::get_if<int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  return Status::TypeError("column '" + row.schema().field(column)->name() + "' is not a number");
}

// Where each band of read_raster comes from: the column naming its dataset, and its band as a
// column (index or description per row) or a literal (an index, else a description).
struct BandArg {
  std::string name;
  int dataset_column = -1;
  int band_column = -1;
  int band = 1;
  std::string description;
};

BuildResult BuildReadRaster(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  ASSIGN_OR_RETURN(std::string output, a.String("output", "raster"));
  ASSIGN_OR_RETURN(auto datasets, a.StringMap("datasets"));
  if (datasets.empty()) return a.Error("datasets", "names no band");
  std::vector<std::pair<std::string, std::string>> band_args;
  if (a.Has("band")) {
    ASSIGN_OR_RETURN(band_args, a.StringMap("band"));
  }
  std::vector<BandArg> bands;
  for (const auto& [name, column] : datasets) {
    BandArg b;
    b.name = name;
    ASSIGN_OR_RETURN(b.dataset_column, InputColumn(ctx, "datasets", column));
    bands.push_back(std::move(b));
  }
  for (const auto& [name, value] : band_args) {
    auto it = std::find_if(bands.begin(), bands.end(), [&](const BandArg& b) { return b.name == name; });
    if (it == bands.end()) return a.Error("band", "'" + name + "' is not one of the datasets' bands");
    it->band_column = ctx.input().schema()->GetFieldIndex(value);
    if (it->band_column >= 0) continue;
    char* end = nullptr;
    const long index = std::strtol(value.c_str(), &end, 10);
    if (!value.empty() && *end == '\0') {
      if (index < 1 || index > INT32_MAX) return a.Error("band", "band indexes start at 1");
      it->band = static_cast<int>(index);
    } else {
      it->description = value;
    }
  }
  raster::OpenOptions base;
  ASSIGN_OR_RETURN(const double scale, a.Double("scale", 1.0));
  ASSIGN_OR_RETURN(const double offset, a.Double("offset", 0.0));
  ASSIGN_OR_RETURN(const std::string scale_column, a.String("scale_column", ""));
  ASSIGN_OR_RETURN(const std::string offset_column, a.String("offset_column", ""));
  int scale_index = -1, offset_index = -1;
  if (!scale_column.empty()) {
    ASSIGN_OR_RETURN(scale_index, InputColumn(ctx, "scale_column", scale_column));
  }
  if (!offset_column.empty()) {
    ASSIGN_OR_RETURN(offset_index, InputColumn(ctx, "offset_column", offset_column));
  }
  ASSIGN_OR_RETURN(const bool sentinel2, a.Bool("sentinel2_boa_offset", false));
  std::optional<double> nodata;
  if (a.Has("nodata")) {
    ASSIGN_OR_RETURN(nodata, a.Double("nodata"));
  }
  ASSIGN_OR_RETURN(const std::string grid, a.String("grid", bands.front().name));
  auto grid_it = std::find_if(bands.begin(), bands.end(), [&](const BandArg& b) { return b.name == grid; });
  if (grid_it == bands.end()) return a.Error("grid", "'" + grid + "' is not one of the datasets' bands");
  base.grid_band = static_cast<int>(grid_it - bands.begin());
  ASSIGN_OR_RETURN(const int64_t overview, a.Int("overview", -1));
  if (overview < -1 || overview > 64) return a.Error("overview", "must be -1 (full resolution) or 0..64");
  base.overview = static_cast<int>(overview);
  ASSIGN_OR_RETURN(auto window, FourNumbers(a, "window"));
  if (window) {
    for (const double v : *window) {
      if (v != std::floor(v) || v < 0 || v > 1e15) return a.Error("window", "must be 4 whole pixel numbers");
    }
    base.window = std::array<int64_t, 4>{static_cast<int64_t>((*window)[0]), static_cast<int64_t>((*window)[1]),
                                         static_cast<int64_t>((*window)[2]), static_cast<int64_t>((*window)[3])};
  }
  ASSIGN_OR_RETURN(base.bbox, FourNumbers(a, "bbox"));
  ASSIGN_OR_RETURN(base.allow_missing_crs, a.Bool("allow_missing_crs", false));
  ASSIGN_OR_RETURN(base.max_pixels, a.Int("max_pixels", base.max_pixels));
  ASSIGN_OR_RETURN(base.config, ConfigArg(a));
  base.bands.resize(bands.size());
  Status valid = base.Validate();
  if (!valid.ok()) return a.Error("datasets", valid.message());
  ASSIGN_OR_RETURN(const raster::RasterApi* gdal, raster::RasterPlugin());
  // The rasters carry the configuration's name: the steps reading their bands again set it too.
  const std::string config = base.config.empty() ? "" : raster::KeepGdalConfig(base.config);
  auto fn = [=](const RowView& row, RowEmitter& out) -> Status {
    raster::OpenOptions options = base;
    for (size_t i = 0; i < bands.size(); ++i) {
      const BandArg& b = bands[i];
      raster::BandSource& s = options.bands[i];
      s.name = b.name;
      ASSIGN_OR_RETURN(s.dataset, RowText(row, b.dataset_column));
      s.band = b.band;
      s.description = b.description;
      if (b.band_column >= 0 && !row.IsNull(b.band_column)) {
        ASSIGN_OR_RETURN(RowValue v, row.Get(b.band_column));
        if (const auto* index = std::get_if<int64_t>(&v)) {
          if (*index < 1 || *index > INT32_MAX) return Status::DataError("band indexes start at 1");
          s.band = static_cast<int>(*index);
        } else {
          ASSIGN_OR_RETURN(s.description, RowText(row, b.band_column));
        }
      }
      ASSIGN_OR_RETURN(s.scale, RowNumber(row, scale_index, scale));
      ASSIGN_OR_RETURN(s.offset, RowNumber(row, offset_index, offset));
      s.nodata = nodata;
      s.sentinel2_boa_offset = sentinel2;
    }
    ASSIGN_OR_RETURN(raster::RasterRef ref, gdal->open_raster(options));
    ref.config = config;
    out.Emit({ref.ToJson()});
    return Status::OK();
  };
  return ctx.pipeline->MapRows(ctx.name, ctx.input(), {Field::Make(output, utf8(), false)}, fn, ctx.options);
}

// A step setting `expression` (made by `make` from the step's arguments) on a raster column.
using ExpressionMaker = std::function<Result<std::string>(StepArgs& a)>;

BuildResult AddComputedBand(StepContext& ctx, const std::string& default_output, const ExpressionMaker& make) {
  StepArgs& a = *ctx.args;
  ASSIGN_OR_RETURN(std::string column, a.String("column", "raster"));
  ASSIGN_OR_RETURN(std::string output, a.String("output", default_output.empty() ? column : default_output));
  ASSIGN_OR_RETURN(const int index, InputColumn(ctx, "column", column));
  ASSIGN_OR_RETURN(std::string expression, make(a));
  auto fn = [index, expression](const RowView& row, RowEmitter& out) -> Status {
    ASSIGN_OR_RETURN(raster::RasterRef ref, RowRaster(row, index));
    if (!ref.expression.empty()) {
      return Status::DataError("the raster is already computed ('" + ref.expression +
                                     "'); write it and read it again to compute over it");
    }
    std::vector<std::string> names;
    for (const auto& b : ref.bands) names.push_back(b.name);
    // The bands are the row's: an expression naming another is a data error of that row.
    Status compiled = raster::Expression::Compile(expression, names).status();
    if (!compiled.ok()) return Status::DataError(compiled.message());
    ref.expression = expression;
    out.Emit({ref.ToJson()});
    return Status::OK();
  };
  return ctx.pipeline->MapRows(ctx.name, ctx.input(), {Field::Make(output, utf8(), false)}, fn, ctx.options);
}

BuildResult BuildBandMath(StepContext& ctx) {
  return AddComputedBand(ctx, "", [](StepArgs& a) -> Result<std::string> {
    ASSIGN_OR_RETURN(std::string expression, a.String("expression"));
    // Syntax errors show when the pipeline is built; band names are checked per raster.
    Status syntax = raster::Expression::CheckSyntax(expression);
    if (!syntax.ok()) return a.Error("expression", syntax.message());
    return expression;
  });
}

BuildResult BuildEvi(StepContext& ctx) {
  return AddComputedBand(ctx, "evi", [](StepArgs& a) -> Result<std::string> {
    ASSIGN_OR_RETURN(std::string blue, a.String("blue", "blue"));
    ASSIGN_OR_RETURN(std::string red, a.String("red", "red"));
    ASSIGN_OR_RETURN(std::string nir, a.String("nir", "nir"));
    return raster::EviExpression(blue, red, nir);
  });
}

BuildResult BuildNdvi(StepContext& ctx) {
  return AddComputedBand(ctx, "ndvi", [](StepArgs& a) -> Result<std::string> {
    ASSIGN_OR_RETURN(std::string red, a.String("red", "red"));
    ASSIGN_OR_RETURN(std::string nir, a.String("nir", "nir"));
    return raster::NdviExpression(red, nir);
  });
}

BuildResult BuildWriteRaster(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  ASSIGN_OR_RETURN(std::string column, a.String("column", "raster"));
  ASSIGN_OR_RETURN(const int raster_index, InputColumn(ctx, "column", column));
  ASSIGN_OR_RETURN(std::string dir, a.String("dir"));
  ASSIGN_OR_RETURN(const std::string root, ctx.ArgPath("dir", dir));
  ASSIGN_OR_RETURN(std::string path_column, a.String("path", "path"));
  ASSIGN_OR_RETURN(const int path_index, InputColumn(ctx, "path", path_column));
  raster::WriteOptions options = raster::WriteOptions::Defaults();
  ASSIGN_OR_RETURN(std::string format, a.String("format", "cog"));
  if (format == "gtiff" || format == "geotiff") {
    options.layout = raster::WriteOptions::Layout::kGeoTiff;
  } else if (format != "cog") {
    return a.Error("format", "must be cog or gtiff");
  }
  ASSIGN_OR_RETURN(options.compress, a.String("compress", "deflate"));
  std::transform(options.compress.begin(), options.compress.end(), options.compress.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  ASSIGN_OR_RETURN(const int64_t block, a.Int("block_size", options.block_size));
  options.block_size = static_cast<int>(std::clamp<int64_t>(block, 0, 1 << 20));
  ASSIGN_OR_RETURN(options.overviews, a.Bool("overviews", options.overviews));
  ASSIGN_OR_RETURN(options.config, ConfigArg(a));
  Status valid = options.Validate();
  if (!valid.ok()) return a.Error("compress", valid.message());
  ASSIGN_OR_RETURN(const raster::RasterApi* gdal, raster::RasterPlugin());
  auto fn = [=](const RowView& row, RowEmitter& out) -> Status {
    ASSIGN_OR_RETURN(raster::RasterRef ref, RowRaster(row, raster_index));
    ASSIGN_OR_RETURN(std::string relative, RowText(row, path_index));
    ASSIGN_OR_RETURN(std::string path, OutputPathInside(row.file_system(), root, relative));
    // GDAL writes the staged file itself, at its local path; the run commits it with its outputs.
    ASSIGN_OR_RETURN(std::string staged, row.run_files().Stage(path));
    raster::WriteOptions write = options;
    ASSIGN_OR_RETURN(write.config, ReadConfig(ref, options.config));
    write.threads = tbb::this_task_arena::max_concurrency();
    write.stop_token = row.run_files().stop_token();
    std::unique_ptr<dataset::StagingRegistration> scratch;
    if (write.layout == raster::WriteOptions::Layout::kCog) {
      scratch = row.run_files().RegisterScratch(path, raster::CogTilesPath(staged));
    }
    Result<raster::WriteStats> written = gdal->write_raster(ref, staged, write);
    if (!written.ok()) {
      (void)row.run_files().Discard(path);
      return written.status();
    }
    const raster::WriteStats& stats = *written;
    out.Emit({stats.valid_count, stats.min, stats.max, stats.mean});
    return Status::OK();
  };
  ctx.pipeline->set_writes_files_per_row();
  return ctx.pipeline->MapRows(ctx.name, ctx.input(),
                               {Field::Make("valid_count", int64(), false), Field::Make("min", float64()),
                                Field::Make("max", float64()), Field::Make("mean", float64())},
                               fn, ctx.options);
}

}  // namespace

void AddRasterSteps(StepRegistry* registry) {
  (void)registry->Add(StepType{"read_raster", "rasters from GDAL datasets named by columns (bands, window, overview)",
                               "", 1, 1, BuildReadRaster});
  (void)registry->Add(StepType{"band_math", "a raster's computed band: an expression over its named bands",
                               "expression", 1, 1, BuildBandMath});
  (void)registry->Add(StepType{"evi",
                               "EVI = 2.5 (nir - red) / (nir + 6 red - 7.5 blue + 1) of a raster's surface reflectance; "
                               "NaN where a band is outside [0, 1], the denominator is not positive or EVI is outside "
                               "[-1, 1]",
                               "", 1, 1, BuildEvi});
  (void)registry->Add(StepType{"ndvi", "NDVI = (nir - red) / (nir + red) of a raster", "", 1, 1, BuildNdvi});
  (void)registry->Add(StepType{"write_raster",
                               "each raster as a float32 COG or GeoTIFF DIR/PATH, computed tile by tile; adds its "
                               "valid_count, min, max, mean",
                               "", 1, 1, BuildWriteRaster});
}

}  // namespace recflow::pipeline
