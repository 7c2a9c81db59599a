// Built-in raster step chips: each raster cut into fixed-size patches, one row per chip with its float32 pixels, shape and an
// optional label sampled from a label raster at the chip's center.
#include <cmath>
#include <cstring>

#include "recflow/pipeline/builtin_steps_internal.h"
#include "recflow/pipeline/raster_step_args.h"
#include "recflow/raster/chips.h"
#include "recflow/raster/raster_plugin.h"

namespace recflow::pipeline {
namespace {

// Why `label` cannot label chips of `ref`: another grid, or more than one band.
Status CheckLabelRaster(const raster::RasterRef& ref, const raster::RasterRef& label) {
  const std::string& file = label.bands.front().dataset;
  if (label.output_bands() != 1) return Status::DataError("the label raster has more than one band").WithFile(file);
  bool same = label.width == ref.width && label.height == ref.height && label.crs == ref.crs;
  for (size_t i = 0; i < 6 && same; ++i) {
    same = std::fabs(label.transform[i] - ref.transform[i]) <=
           1e-9 * std::max({1.0, std::fabs(label.transform[i]), std::fabs(ref.transform[i])});
  }
  if (!same) {
    return Status::DataError("the label raster is on another grid than the raster; put it on the raster's grid "
                             "with warp (like: the raster's column)")
        .WithFile(file);
  }
  return Status::OK();
}

Result<std::optional<PCollection>> BuildChips(StepContext& ctx) {
  StepArgs& a = *ctx.args;
  ASSIGN_OR_RETURN(std::string column, a.String("column", "raster"));
  ASSIGN_OR_RETURN(const int index, InputColumn(ctx, "column", column));
  raster::ChipOptions options;
  ASSIGN_OR_RETURN(options.size, a.Int("size"));
  ASSIGN_OR_RETURN(options.stride, a.Int("stride", options.size));
  ASSIGN_OR_RETURN(std::string partial, a.String("partial", "drop"));
  if (partial != "drop" && partial != "pad") return a.Error("partial", "must be drop or pad");
  options.pad = partial == "pad";
  Status valid = options.Validate();
  if (!valid.ok()) return a.Error("size", valid.message());
  ASSIGN_OR_RETURN(const double max_nodata, a.Double("max_nodata", 1.0));
  if (!(max_nodata >= 0 && max_nodata <= 1)) return a.Error("max_nodata", "is a fraction, 0..1");
  ASSIGN_OR_RETURN(const int64_t max_bytes, a.Int("max_bytes", int64_t{1} << 30));
  ASSIGN_OR_RETURN(std::string label, a.String("label_raster", ""));
  int label_index = -1;
  if (!label.empty()) {
    ASSIGN_OR_RETURN(label_index, InputColumn(ctx, "label_raster", label));
  }
  ASSIGN_OR_RETURN(raster::GdalConfig step_config, ConfigArg(a));
  ASSIGN_OR_RETURN(const raster::RasterApi* gdal, raster::RasterPlugin());
  auto fn = [=](const RowView& row, RowEmitter& out) -> Status {
    ASSIGN_OR_RETURN(raster::RasterRef ref, RowRaster(row, index));
    ASSIGN_OR_RETURN(const raster::GdalConfig config, ReadConfig(ref, step_config));
    std::optional<raster::RasterRef> label_ref;
    raster::GdalConfig label_config;
    if (label_index >= 0) {
      ASSIGN_OR_RETURN(label_ref, RowRaster(row, label_index));
      RETURN_NOT_OK(CheckLabelRaster(ref, *label_ref));
      ASSIGN_OR_RETURN(label_config, ReadConfig(*label_ref, step_config));
    }
    const std::vector<raster::TileRect> rects = raster::ChipRects(ref, options);
    const int64_t channels = ref.output_bands();
    const int64_t chip_bytes = options.size * options.size * channels * static_cast<int64_t>(sizeof(float));
    if (!rects.empty() && static_cast<int64_t>(rects.size()) > max_bytes / chip_bytes) {
      return Status::DataError("chips: " + std::to_string(rects.size()) + " chips of " + std::to_string(chip_bytes) +
                               " bytes are more than max_bytes (" + std::to_string(max_bytes) +
                               ") for one row; cut a window or bbox per row")
          .WithFile(ref.bands.front().dataset);
    }
    const StopToken& stop = row.run_files().stop_token();
    // The labels first (one pixel per chip, at its center), then the chips, each read by one pass over the row's
    // chips whose threads open the datasets once.
    std::vector<double> labels;
    if (label_ref) {
      std::vector<raster::TileRect> centers;
      for (const raster::TileRect& rect : rects) {
        centers.push_back({rect.x + rect.width / 2, rect.y + rect.height / 2, 1, 1});
      }
      labels.resize(centers.size());
      RETURN_NOT_OK(gdal->read_chips(*label_ref, centers, label_config, stop,
                                     [&](size_t i, std::span<const float> center) {
                                       labels[i] = static_cast<double>(center.front());
                                       return Status::OK();
                                     }));
    }
    return gdal->read_chips(ref, rects, config, stop, [&](size_t i, std::span<const float> values) {
      const auto nodata =
          static_cast<double>(std::count_if(values.begin(), values.end(), [](float v) { return std::isnan(v); }));
      if (nodata > max_nodata * static_cast<double>(values.size())) return Status::OK();
      std::string pixels(values.size() * sizeof(float), '\0');
      std::memcpy(pixels.data(), values.data(), pixels.size());
      const raster::TileRect& rect = rects[i];
      std::vector<RowValue> chip{rect.x, rect.y, rect.height, rect.width, channels, std::move(pixels)};
      if (label_ref) chip.emplace_back(labels[i]);
      out.Emit(std::move(chip));
      return Status::OK();
    });
  };
  std::vector<FieldPtr> fields{Field::Make("chip_x", int64(), false),   Field::Make("chip_y", int64(), false),
                               Field::Make("height", int64(), false),   Field::Make("width", int64(), false),
                               Field::Make("channels", int64(), false), Field::Make("pixels", binary(), false)};
  if (label_index >= 0) fields.push_back(Field::Make("label", float64()));
  return ctx.pipeline->MapRows(ctx.name, ctx.input(), fields, fn, ctx.options);
}

}  // namespace

void AddRasterChipSteps(StepRegistry* registry) {
  (void)registry->Add(StepType{"chips",
                               "each raster cut into size x size patches: one row per chip (chip_x, chip_y, height, "
                               "width, channels, pixels as float32 HWC bytes, label)",
                               "size", 1, 1, BuildChips});
}

}  // namespace recflow::pipeline
