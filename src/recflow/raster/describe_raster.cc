// DescribeRaster: a GDAL dataset's grid, CRS, bands and overviews, and exact statistics from one pass over its blocks.
#include "recflow/raster/describe_raster.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>
#include <gdal_priv.h>
#include <ogr_spatialref.h>

#include "recflow/raster/gdal_dataset.h"
#include "recflow/raster/value_stats.h"

namespace recflow::raster {
namespace {

// Exact statistics of `band` over its valid values, read block by block.
Status BandStatistics(GDALRasterBand* band, const std::string& dataset, BandDescription* out) {
  int block_w = 0, block_h = 0;
  band->GetBlockSize(&block_w, &block_h);
  const int64_t width = band->GetXSize(), height = band->GetYSize();
  // Rows of whole blocks, at most 4 Mi pixels at a time.
  const int64_t rows = std::clamp<int64_t>((int64_t{1} << 22) / width, std::min<int64_t>(block_h, height), height);
  std::vector<double> values(static_cast<size_t>(rows * width));
  ValueStats stats;
  for (int64_t y = 0; y < height; y += rows) {
    const int64_t h = std::min(rows, height - y);
    if (band->RasterIO(GF_Read, 0, static_cast<int>(y), static_cast<int>(width), static_cast<int>(h), values.data(),
                       static_cast<int>(width), static_cast<int>(h), GDT_Float64, 0, 0, nullptr) != CE_None) {
      return GdalError(dataset, fmt::format("cannot read band {} rows {}..{}", out->index, y, y + h - 1));
    }
    for (int64_t i = 0; i < h * width; ++i) {
      const double v = values[static_cast<size_t>(i)];
      if (out->nodata && v == *out->nodata) continue;
      stats.Add(v);
    }
  }
  out->valid_count = stats.count();
  out->min = stats.min();
  out->max = stats.max();
  out->mean = stats.mean();
  out->std = stats.std();
  return Status::OK();
}

}  // namespace

Result<RasterDescription> DescribeRaster(const std::string& dataset, const GdalConfig& config) {
  GdalThreadScope scope(config);
  ASSIGN_OR_RETURN(std::unique_ptr<GDALDataset> ds, OpenDataset(dataset));
  RasterDescription d;
  d.dataset = dataset;
  d.driver = ds->GetDriver() != nullptr ? ds->GetDriver()->GetDescription() : "";
  const char* layout = ds->GetMetadataItem("LAYOUT", "IMAGE_STRUCTURE");
  d.layout = layout != nullptr ? layout : "";
  const char* compression = ds->GetMetadataItem("COMPRESSION", "IMAGE_STRUCTURE");
  d.compression = compression != nullptr ? compression : "NONE";
  d.width = ds->GetRasterXSize();
  d.height = ds->GetRasterYSize();
  if (const OGRSpatialReference* srs = ds->GetSpatialRef()) {
    d.crs_wkt = Wkt2Of(*srs);
    d.crs_name = srs->GetName() != nullptr ? srs->GetName() : "";
    const char* authority = srs->GetAuthorityName(nullptr);
    const char* code = srs->GetAuthorityCode(nullptr);
    if (authority != nullptr && code != nullptr) d.crs_id = std::string(authority) + ":" + code;
  }
  std::array<double, 6> gt{};
  if (ds->GetGeoTransform(gt.data()) == CE_None) d.transform = gt;
  for (int i = 1; i <= ds->GetRasterCount(); ++i) {
    GDALRasterBand* band = ds->GetRasterBand(i);
    BandDescription b;
    b.index = i;
    b.type = GDALGetDataTypeName(band->GetRasterDataType());
    b.description = band->GetDescription();
    int has_nodata = 0;
    const double nodata = band->GetNoDataValue(&has_nodata);
    if (has_nodata) b.nodata = nodata;
    band->GetBlockSize(&b.block_width, &b.block_height);
    for (int k = 0; k < band->GetOverviewCount(); ++k) {
      GDALRasterBand* overview = band->GetOverview(k);
      if (overview != nullptr) b.overviews.emplace_back(overview->GetXSize(), overview->GetYSize());
    }
    if (GDALDataTypeIsComplex(band->GetRasterDataType())) {
      return Status::DataError(fmt::format("band {}: type {} is not a real number type", i, b.type)).WithFile(dataset);
    }
    RETURN_NOT_OK(BandStatistics(band, dataset, &b));
    d.bands.push_back(std::move(b));
  }
  return d;
}

}  // namespace recflow::raster
