// `recflow inspect` on rasters: the description of each GDAL dataset, as text lines or one JSON object per raster.
#include "recflow/cli/inspect_raster.h"

#include <fmt/format.h>

#include "recflow/core/url_redaction.h"
#include "recflow/formats/builtin/builtin_formats.h"
#include "recflow/formats/jsonl/json_writer.h"
#include "recflow/formats/sniff.h"
#include "recflow/raster/raster_plugin.h"
#include "recflow/raster/remote_access.h"

namespace recflow::cli {
namespace {

void WriteAccessJson(const std::optional<raster::RemoteAccess>& a, jsonl::JsonWriter* w) {
  w->Key("access");
  if (!a) {
    w->Null();
    return;
  }
  w->BeginObject();
  for (const auto& [key, value] : {std::pair<const char*, const std::string&>{"service", a->service},
                                   {"endpoint", a->endpoint},
                                   {"endpoint_source", a->endpoint_source},
                                   {"region", a->region},
                                   {"region_source", a->region_source},
                                   {"credentials", a->credentials},
                                   {"key_id", a->key_id},
                                   {"credentials_file", a->credentials_file}}) {
    w->Key(key);
    w->String(value);
  }
  for (const auto& [key, value] : {std::pair{"https", a->https},
                                   {"virtual_hosting", a->virtual_hosting},
                                   {"session_token", a->session_token}}) {
    w->Key(key);
    w->Bool(value);
  }
  w->EndObject();
}

void WriteJson(const raster::RasterDescription& d, const std::optional<raster::RemoteAccess>& access,
               std::string* out) {
  jsonl::JsonWriter w(out);
  w.BeginObject();
  const std::string path = RedactUrlPasswords(d.dataset);
  for (const auto& [key, value] : {std::pair<const char*, const std::string&>{"path", path},
                                   {"driver", d.driver},
                                   {"layout", d.layout},
                                   {"compression", d.compression}}) {
    w.Key(key);
    w.String(value);
  }
  WriteAccessJson(access, &w);
  w.Key("width");
  w.Int(d.width);
  w.Key("height");
  w.Int(d.height);
  for (const auto& [key, value] : {std::pair<const char*, const std::string&>{"crs", d.crs_id},
                                   {"crs_name", d.crs_name},
                                   {"crs_wkt", d.crs_wkt}}) {
    w.Key(key);
    w.String(value);
  }
  w.Key("transform");
  if (d.transform) {
    w.BeginArray();
    for (const double v : *d.transform) w.Double(v);
    w.EndArray();
  } else {
    w.Null();
  }
  w.Key("bands");
  w.BeginArray();
  for (const raster::BandDescription& b : d.bands) {
    w.BeginObject();
    w.Key("band");
    w.Int(b.index);
    for (const auto& [key, value] : {std::pair<const char*, const std::string&>{"type", b.type},
                                     {"description", b.description}}) {
      w.Key(key);
      w.String(value);
    }
    w.Key("nodata");
    if (b.nodata) {
      w.Double(*b.nodata);
    } else {
      w.Null();
    }
    w.Key("block");
    w.BeginArray();
    w.Int(b.block_width);
    w.Int(b.block_height);
    w.EndArray();
    w.Key("overviews");
    w.BeginArray();
    for (const auto& [width, height] : b.overviews) {
      w.BeginArray();
      w.Int(width);
      w.Int(height);
      w.EndArray();
    }
    w.EndArray();
    w.Key("valid_count");
    w.Int(b.valid_count);
    for (const auto& [key, value] : {std::pair{"min", b.min}, {"max", b.max}, {"mean", b.mean}, {"std", b.std}}) {
      w.Key(key);
      w.Double(value);
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  *out += '\n';
}

/// "s3, endpoint E (source), http, path-style, region R (source)".
std::string EndpointText(const raster::RemoteAccess& a) {
  const std::string region = a.region.empty() ? "" : fmt::format(", region {} ({})", a.region, a.region_source);
  const std::string hosting = a.service != "s3" ? "" : a.virtual_hosting ? ", virtual hosting" : ", path-style";
  return fmt::format("{}, endpoint {} ({}), {}{}{}", a.service, a.endpoint, a.endpoint_source,
                     a.https ? "https" : "http", hosting, region);
}

/// "SOURCE, key id K, with a session token, file F": never the secret.
std::string CredentialsText(const raster::RemoteAccess& a) {
  return fmt::format("{}{}{}{}", a.credentials, a.key_id.empty() ? "" : ", key id " + a.key_id,
                     a.session_token ? ", with a session token" : "",
                     a.credentials_file.empty() ? "" : ", file " + a.credentials_file);
}

void WriteText(const raster::RasterDescription& d, const std::optional<raster::RemoteAccess>& access,
               std::string* out) {
  *out += fmt::format("raster:      {}\n", RedactUrlPasswords(d.dataset));
  if (access) {
    *out += fmt::format("access:      {}\n", EndpointText(*access));
    *out += fmt::format("credentials: {}\n", CredentialsText(*access));
  }
  *out += fmt::format("driver:      {}{}, {} compression\n", d.driver, d.layout.empty() ? "" : " (" + d.layout + ")",
                      d.compression);
  *out += fmt::format("size:        {} x {} pixels, {} band(s)\n", d.width, d.height, d.bands.size());
  const std::string crs = d.crs_id.empty() ? d.crs_name : d.crs_name + " (" + d.crs_id + ")";
  *out += fmt::format("crs:         {}\n", d.crs_wkt.empty() ? "none" : crs);
  if (d.transform) {
    const auto& t = *d.transform;
    *out += fmt::format("geotransform: origin {}, {}; pixel {} x {}; rotation {}, {}\n", t[0], t[3], t[1], t[5], t[2],
                        t[4]);
  } else {
    *out += "geotransform: none\n";
  }
  *out += fmt::format("{:<5} {:<9} {:<12} {:>10} {:>11} {:<24} {:>12} {:>12} {:>12} {:>12} {:>12}\n", "band", "type",
                      "description", "nodata", "block", "overviews", "valid", "min", "max", "mean", "std");
  for (const raster::BandDescription& b : d.bands) {
    std::string overviews;
    for (const auto& [width, height] : b.overviews) {
      overviews += (overviews.empty() ? "" : ", ") + fmt::format("{}x{}", width, height);
    }
    *out += fmt::format("{:<5} {:<9} {:<12} {:>10} {:>11} {:<24} {:>12} {:>12.6g} {:>12.6g} {:>12.6g} {:>12.6g}\n",
                        b.index, b.type, b.description.empty() ? "-" : b.description,
                        b.nodata ? fmt::format("{}", *b.nodata) : "-",
                        fmt::format("{}x{}", b.block_width, b.block_height),
                        overviews.empty() ? "-" : overviews, b.valid_count, b.min, b.max, b.mean, b.std);
  }
}

}  // namespace

Result<bool> AllRasters(const std::vector<std::string>& inputs) {
  if (inputs.empty()) return false;
  for (const std::string& input : inputs) {
    if (raster::IsGdalVirtualPath(input)) continue;
    if (input == "-") return false;
    auto sniffed = formats::SniffFile(input, formats::BuiltinFormats().sniff_rules());
    if (!sniffed.ok() || sniffed->content != formats::ContentKind::kTiff) return false;
  }
  return true;
}

Status InspectRasters(const std::vector<std::string>& inputs, const raster::GdalConfig& config, bool json,
                      StdoutWriter* out) {
  ASSIGN_OR_RETURN(const raster::RasterApi* gdal, raster::RasterPlugin());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::optional<raster::RemoteAccess> access = raster::ResolveRemoteAccess(inputs[i], config);
    Result<raster::RasterDescription> described = gdal->describe_raster(inputs[i], config);
    // Which key and endpoint it tried is what a failed remote open most needs to say.
    if (!described.ok() && access) {
      return described.status().WithNote(
          fmt::format(" (credentials: {}; {})", CredentialsText(*access), EndpointText(*access)));
    }
    ASSIGN_OR_RETURN(raster::RasterDescription d, std::move(described));
    if (json) {
      WriteJson(d, access, out->buffer());
    } else {
      if (i > 0) *out->buffer() += '\n';
      WriteText(d, access, out->buffer());
    }
    RETURN_NOT_OK(out->Flush());
  }
  return Status::OK();
}

}  // namespace recflow::cli
