// The raster steps' shared arguments and row values.
#include "recflow/pipeline/raster_step_args.h"

#include "recflow/raster/gdal_configs.h"

namespace recflow::pipeline {

Result<std::string> RowText(const RowView& row, int column) {
  ASSIGN_OR_RETURN(std::string_view text, row.Bytes(column));
  return std::string(text);
}

Result<raster::RasterRef> RowRaster(const RowView& row, int column) {
  ASSIGN_OR_RETURN(std::string_view text, row.Bytes(column));
  return raster::RasterRef::FromJson(text);
}

Result<std::optional<std::array<double, 4>>> FourNumbers(StepArgs& a, std::string_view key) {
  if (!a.Has(key)) return std::optional<std::array<double, 4>>();
  ASSIGN_OR_RETURN(std::vector<double> v, a.DoubleList(key));
  if (v.size() != 4) return a.Error(key, "must be 4 numbers");
  return std::optional<std::array<double, 4>>(std::array<double, 4>{v[0], v[1], v[2], v[3]});
}

Result<raster::GdalConfig> ConfigArg(StepArgs& a) {
  if (!a.Has("config")) return raster::GdalConfig();
  return a.StringMap("config");
}

Result<raster::GdalConfig> ReadConfig(const raster::RasterRef& ref, const raster::GdalConfig& step_config) {
  if (ref.config.empty()) return step_config;
  ASSIGN_OR_RETURN(raster::GdalConfig config, raster::FindGdalConfig(ref.config));
  config.insert(config.end(), step_config.begin(), step_config.end());
  return config;
}

}  // namespace recflow::pipeline
