// The mosaic pick pixel function: per pixel, the DN of the raster whose key (a band's value or an expression over key bands) wins.
#include "recflow/raster/mosaic_pick.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal.h>

#include "recflow/raster/expression.h"

namespace recflow::raster {
namespace {

// The pixel function's arguments, parsed from the VRT's PixelFunctionArguments.
struct PickArgs {
  bool max = true;
  double nodata = 0;
  double scale = 1;
  std::string key;
  std::vector<std::string> key_names;
  std::vector<double> key_scales;
  std::vector<double> key_offsets;
};

std::optional<double> Number(CSLConstList args, const std::string& name) {
  const char* text = CSLFetchNameValue(args, name.c_str());
  if (text == nullptr) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0') return std::nullopt;
  return value;
}

bool Parse(CSLConstList args, PickArgs* out) {
  const char* rule = CSLFetchNameValue(args, "rule");
  if (rule == nullptr || (std::string(rule) != "max" && std::string(rule) != "min")) return false;
  out->max = std::string(rule) == "max";
  const auto nodata = Number(args, "nodata");
  const auto scale = Number(args, "scale");
  const auto keys = Number(args, "keys");
  if (!nodata || !scale || !keys || *keys < 0 || *keys > 64) return false;
  out->nodata = *nodata;
  out->scale = *scale;
  if (*keys == 0) return true;
  const char* key = CSLFetchNameValue(args, "key");
  if (key == nullptr) return false;
  out->key = key;
  for (int j = 0; j < static_cast<int>(*keys); ++j) {
    const char* name = CSLFetchNameValue(args, ("key_name_" + std::to_string(j)).c_str());
    const auto s = Number(args, "key_scale_" + std::to_string(j));
    const auto o = Number(args, "key_offset_" + std::to_string(j));
    if (name == nullptr || !s || !o) return false;
    out->key_names.emplace_back(name);
    out->key_scales.push_back(*s);
    out->key_offsets.push_back(*o);
  }
  return true;
}

CPLErr Fail(const std::string& message) {
  CPLError(CE_Failure, CPLE_AppDefined, "%s: %s", kMosaicPickFunction, message.c_str());
  return CE_Failure;
}

CPLErr MosaicPick(void** sources, int source_count, void* data, int width, int height, GDALDataType source_type,
                  GDALDataType buffer_type, int pixel_space, int line_space, CSLConstList arguments) {
  PickArgs args;
  if (!Parse(arguments, &args)) return Fail("bad arguments");
  if (source_type != GDT_Float64) return Fail("the sources must be transferred as Float64");
  const size_t keys = args.key_names.size();
  const size_t stride = 1 + keys;
  if (source_count <= 0 || static_cast<size_t>(source_count) % stride != 0) return Fail("bad number of sources");
  const size_t rasters = static_cast<size_t>(source_count) / stride;
  const auto n = static_cast<size_t>(width) * static_cast<size_t>(height);
  const double nodata = args.nodata;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto missing = [nodata](double dn) { return std::isnan(dn) || dn == nodata; };
  std::vector<double> best_key(n, nan);
  std::vector<int32_t> best(n, -1);
  auto offer = [&](size_t p, double key, size_t raster) {
    if (std::isnan(key)) return;
    if (best[p] < 0 || (args.max ? key > best_key[p] : key < best_key[p])) {
      best[p] = static_cast<int32_t>(raster);
      best_key[p] = key;
    }
  };
  if (keys == 0) {
    for (size_t i = 0; i < rasters; ++i) {
      const auto* dn = static_cast<const double*>(sources[i * stride]);
      for (size_t p = 0; p < n; ++p) offer(p, missing(dn[p]) ? nan : dn[p] * args.scale, i);
    }
  } else {
    auto expression = Expression::Compile(args.key, args.key_names);
    if (!expression.ok()) return Fail(expression.status().message());
    std::vector<std::vector<double>> values(keys, std::vector<double>(n));
    std::vector<const double*> inputs(keys);
    std::vector<double> key(n);
    std::vector<std::vector<double>> scratch;
    for (size_t i = 0; i < rasters; ++i) {
      for (size_t j = 0; j < keys; ++j) {
        const auto* dn = static_cast<const double*>(sources[i * stride + 1 + j]);
        const double s = args.key_scales[j], o = args.key_offsets[j];
        for (size_t p = 0; p < n; ++p) values[j][p] = missing(dn[p]) ? nan : dn[p] * s + o;
        inputs[j] = values[j].data();
      }
      expression->Evaluate(inputs, static_cast<int64_t>(n), key.data(), scratch);
      for (size_t p = 0; p < n; ++p) offer(p, key[p], i);
    }
  }
  // The winner's DN (best_key is reused for it), one row at a time into the caller's buffer.
  for (size_t p = 0; p < n; ++p) {
    best_key[p] = best[p] < 0 ? nodata : static_cast<const double*>(sources[static_cast<size_t>(best[p]) * stride])[p];
  }
  for (int y = 0; y < height; ++y) {
    GDALCopyWords(best_key.data() + static_cast<size_t>(y) * static_cast<size_t>(width), GDT_Float64, sizeof(double),
                  static_cast<GByte*>(data) + static_cast<GPtrDiff_t>(y) * line_space, buffer_type, pixel_space, width);
  }
  return CE_None;
}

}  // namespace

void RegisterMosaicPick() { GDALAddDerivedBandPixelFuncWithArgs(kMosaicPickFunction, MosaicPick, ""); }

}  // namespace recflow::raster
