// RasterRef's JSON text: written with fmt, read with simdjson's DOM.
#include "recflow/raster/raster_ref.h"

#include <fmt/format.h>
#include <simdjson.h>

namespace recflow::raster {
namespace {

// `text` as a JSON string literal.
std::string Quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

// The largest grid a raster value may describe (OpenOptions::max_pixels' default).
constexpr int64_t kMaxPixels = int64_t{1} << 36;

Status Bad(std::string_view what) { return Status::DataError("not a raster value: " + std::string(what)); }

Result<double> Number(simdjson::dom::element e, std::string_view key) {
  int64_t signed_value = 0;
  uint64_t unsigned_value = 0;
  double value = 0;
  if (e.get_int64().get(signed_value) == simdjson::SUCCESS) return static_cast<double>(signed_value);
  if (e.get_uint64().get(unsigned_value) == simdjson::SUCCESS) return static_cast<double>(unsigned_value);
  if (e.get_double().get(value) != simdjson::SUCCESS) return Bad(std::string(key) + " is not a number");
  return value;
}

Result<int64_t> Integer(simdjson::dom::object o, std::string_view key) {
  int64_t value = 0;
  if (o[key].get_int64().get(value) != simdjson::SUCCESS) return Bad(std::string(key) + " is not an integer");
  return value;
}

Result<std::string> Text(simdjson::dom::object o, std::string_view key) {
  std::string_view value;
  if (o[key].get_string().get(value) != simdjson::SUCCESS) return Bad(std::string(key) + " is not a string");
  return std::string(value);
}

Result<BandRef> ParseBand(simdjson::dom::element e) {
  simdjson::dom::object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) return Bad("a band is not an object");
  BandRef b;
  ASSIGN_OR_RETURN(b.name, Text(o, "name"));
  ASSIGN_OR_RETURN(b.dataset, Text(o, "dataset"));
  ASSIGN_OR_RETURN(b.type, Text(o, "type"));
  ASSIGN_OR_RETURN(int64_t band, Integer(o, "band"));
  ASSIGN_OR_RETURN(int64_t overview, Integer(o, "overview"));
  ASSIGN_OR_RETURN(int64_t block_width, Integer(o, "block_width"));
  ASSIGN_OR_RETURN(int64_t block_height, Integer(o, "block_height"));
  ASSIGN_OR_RETURN(b.x0, Integer(o, "x0"));
  ASSIGN_OR_RETURN(b.y0, Integer(o, "y0"));
  if (band < 1 || band > INT32_MAX || overview < -1 || overview > INT32_MAX || block_width < 1 ||
      block_width > INT32_MAX || block_height < 1 || block_height > INT32_MAX || b.x0 < 0 || b.y0 < 0) {
    return Bad("band " + b.name + " has an index, overview, block size or window out of range");
  }
  b.band = static_cast<int>(band);
  b.overview = static_cast<int>(overview);
  b.block_width = static_cast<int>(block_width);
  b.block_height = static_cast<int>(block_height);
  simdjson::dom::element v;
  if (o["scale"].get(v) != simdjson::SUCCESS) return Bad("band without scale");
  ASSIGN_OR_RETURN(b.scale, Number(v, "scale"));
  if (o["offset"].get(v) != simdjson::SUCCESS) return Bad("band without offset");
  ASSIGN_OR_RETURN(b.offset, Number(v, "offset"));
  if (o["nodata"].get(v) == simdjson::SUCCESS && !v.is_null()) {
    ASSIGN_OR_RETURN(b.nodata, Number(v, "nodata"));
  }
  return b;
}

}  // namespace

std::string RasterRef::ToJson() const {
  std::string out = fmt::format(
      "{{\"width\":{},\"height\":{},\"crs\":{},\"transform\":[{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}],"
      "\"expression\":{},\"config\":{},\"bands\":[",
                                width, height, Quote(crs), transform[0], transform[1], transform[2], transform[3],
                                transform[4], transform[5], Quote(expression), Quote(config));
  for (size_t i = 0; i < bands.size(); ++i) {
    const BandRef& b = bands[i];
    out += fmt::format(
        "{}{{\"name\":{},\"dataset\":{},\"band\":{},\"overview\":{},\"type\":{},\"scale\":{:.17g},\"offset\":{:.17g},"
        "\"nodata\":{},\"x0\":{},\"y0\":{},\"block_width\":{},\"block_height\":{}}}",
        i == 0 ? "" : ",", Quote(b.name), Quote(b.dataset), b.band, b.overview, Quote(b.type), b.scale, b.offset,
        b.nodata ? fmt::format("{:.17g}", *b.nodata) : "null", b.x0, b.y0, b.block_width, b.block_height);
  }
  return out + "]}";
}

Result<RasterRef> RasterRef::FromJson(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(json.data(), json.size(), true).get(root) != simdjson::SUCCESS) return Bad("invalid JSON");
  simdjson::dom::object o;
  if (root.get_object().get(o) != simdjson::SUCCESS) return Bad("not an object");
  RasterRef r;
  ASSIGN_OR_RETURN(r.width, Integer(o, "width"));
  ASSIGN_OR_RETURN(r.height, Integer(o, "height"));
  if (r.width < 1 || r.height < 1) return Bad("empty grid");
  if (r.width > INT32_MAX || r.height > INT32_MAX || r.width > kMaxPixels / r.height) {
    return Bad(fmt::format("a {} × {} grid is more than 2^36 pixels", r.width, r.height));
  }
  ASSIGN_OR_RETURN(r.crs, Text(o, "crs"));
  ASSIGN_OR_RETURN(r.expression, Text(o, "expression"));
  if (o["config"].error() == simdjson::SUCCESS) {
    ASSIGN_OR_RETURN(r.config, Text(o, "config"));
  }
  simdjson::dom::array transform;
  if (o["transform"].get_array().get(transform) != simdjson::SUCCESS || transform.size() != 6) {
    return Bad("transform is not 6 numbers");
  }
  size_t i = 0;
  for (simdjson::dom::element v : transform) {
    ASSIGN_OR_RETURN(r.transform[i++], Number(v, "transform"));
  }
  simdjson::dom::array bands;
  if (o["bands"].get_array().get(bands) != simdjson::SUCCESS || bands.size() == 0) return Bad("no bands");
  for (simdjson::dom::element b : bands) {
    ASSIGN_OR_RETURN(BandRef band, ParseBand(b));
    r.bands.push_back(std::move(band));
  }
  return r;
}

}  // namespace recflow::raster
