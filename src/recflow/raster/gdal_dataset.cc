// OpenDataset, DatasetFile and Wkt2Of: GDAL's open flags, the files behind recflow's VRTs and WKT export options in one place.
#include "recflow/raster/gdal_dataset.h"

#include <algorithm>
#include <vector>

#include <cpl_conv.h>
#include <cpl_minixml.h>
#include <ogr_spatialref.h>

#include "recflow/raster/gdal_env.h"

namespace recflow::raster {

namespace {

// The source dataset names under `node` (a warped VRT's SourceDataset, a VRT source's SourceFilename), a source that is
// itself a VRT's XML replaced by its own sources.
void CollectSources(const CPLXMLNode* node, std::vector<std::string>* out) {
  for (; node != nullptr; node = node->psNext) {
    if (node->eType != CXT_Element) continue;
    const std::string element = node->pszValue;
    if (element == "SourceDataset" || element == "SourceFilename") {
      const std::string name = CPLGetXMLValue(node, "", "");
      if (name.rfind("<VRTDataset", 0) == 0) {
        CPLXMLNode* inner = CPLParseXMLString(name.c_str());
        CollectSources(inner, out);
        CPLDestroyXMLNode(inner);
      } else if (std::find(out->begin(), out->end(), name) == out->end()) {
        out->push_back(name);
      }
      continue;
    }
    CollectSources(node->psChild, out);
  }
}

}  // namespace

std::string DatasetFile(const std::string& dataset) {
  if (dataset.rfind("<VRTDataset", 0) != 0) return dataset;
  CPLXMLNode* root = CPLParseXMLString(dataset.c_str());
  std::vector<std::string> sources;
  CollectSources(root, &sources);
  CPLDestroyXMLNode(root);
  if (sources.empty()) return dataset;
  std::string names = sources.front();
  for (size_t i = 1; i < sources.size(); ++i) names += ", " + sources[i];
  return names;
}

Result<std::unique_ptr<GDALDataset>> OpenDataset(const std::string& name) {
  std::unique_ptr<GDALDataset> ds(
      GDALDataset::Open(name.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR));
  if (ds == nullptr) return GdalError(DatasetFile(name), "cannot open as a raster");
  return ds;
}

std::string Wkt2Of(const OGRSpatialReference& srs) {
  char* wkt = nullptr;
  const char* options[] = {"FORMAT=WKT2_2019", nullptr};
  srs.exportToWkt(&wkt, options);
  std::string text = wkt != nullptr ? wkt : "";
  CPLFree(wkt);
  return text;
}

}  // namespace recflow::raster
