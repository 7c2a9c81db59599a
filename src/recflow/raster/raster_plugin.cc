// RasterPlugin: the plugin found beside the object holding this code and loaded once with dlopen.
#include "recflow/raster/raster_plugin.h"

#include <dlfcn.h>
#include <link.h>

#include <filesystem>
#include <mutex>
#include <system_error>

namespace recflow::raster {
namespace {

// The signature of the plugin's entry point, "recflow_raster_api".
using EntryPoint = const RasterApi* (*)(int version);

// The directory of the executable or shared object this code is linked into.
std::filesystem::path HostDirectory() {
  Dl_info info;
  link_map* map = nullptr;
  if (dladdr1(reinterpret_cast<void*>(&HostDirectory), &info, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) != 0 &&
      map != nullptr && map->l_name != nullptr && map->l_name[0] != '\0') {
    std::error_code ec;
    std::filesystem::path path = std::filesystem::canonical(map->l_name, ec);
    if (!ec) return path.parent_path();
  }
  // The main program (its link map has no name).
  std::error_code ec;
  return std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
}

Result<const RasterApi*> Load() {
  const std::string path = (HostDirectory() / kRasterPluginName).string();
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    // The path is in the message: a pipeline's step error keeps the message, not the file.
    return Status::IOError("cannot load the raster plugin " + path +
                           " (rasters are read and written through it, with GDAL): " +
                           std::string(why != nullptr ? why : "unknown error"));
  }
  auto entry = reinterpret_cast<EntryPoint>(dlsym(library, "recflow_raster_api"));
  const RasterApi* api = entry != nullptr ? entry(kRasterApiVersion) : nullptr;
  if (api == nullptr) {
    return Status::IOError("the raster plugin " + path + " is from another build of recflow (no entry point for version " +
                           std::to_string(kRasterApiVersion) + ")");
  }
  return api;  // never unloaded: GDAL keeps process-wide state
}

}  // namespace

Result<const RasterApi*> RasterPlugin() {
  static const Result<const RasterApi*> api = Load();
  return api;
}

}  // namespace recflow::raster
