// Arguments and row values the raster steps share: GDAL configuration, four-number boxes, a raster column's text.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "recflow/pipeline/row_do_fn.h"
#include "recflow/pipeline/step_args.h"
#include "recflow/raster/gdal_env.h"
#include "recflow/raster/raster_ref.h"

namespace recflow::pipeline {

/// The text of `column` (utf8 or binary) in `row`; a null is a row error naming the column (RowView::Bytes).
Result<std::string> RowText(const RowView& row, int column);

/// The raster value in `column` of `row`.
Result<raster::RasterRef> RowRaster(const RowView& row, int column);

/// The optional 4-number argument `key` (a window, a bbox, an extent).
Result<std::optional<std::array<double, 4>>> FourNumbers(StepArgs& a, std::string_view key);

/// GDAL configuration options given to the step (`config`: a mapping of option → value).
Result<raster::GdalConfig> ConfigArg(StepArgs& a);

/// The configuration `ref`'s bands are read with: read_raster's (named by RasterRef::config, kept
/// in this process) first, then the step's own `step_config` over it.
Result<raster::GdalConfig> ReadConfig(const raster::RasterRef& ref, const raster::GdalConfig& step_config);

}  // namespace recflow::pipeline
