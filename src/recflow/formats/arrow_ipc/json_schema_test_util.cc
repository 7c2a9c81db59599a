// Test support: Arrow integration JSON → SchemaDesc (the independent side of the interop comparison).
#include <simdjson.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "recflow/core/compression.h"
#include "recflow/formats/arrow_ipc/json_schema_test_util_internal.h"
#include "recflow/testing/testdata.h"

namespace recflow::arrow_ipc::testing {
namespace {

using simdjson::dom::element;

Status JsonError(const std::string& what) { return Status::DataError("integration json: " + what); }

Result<element> Get(element object, std::string_view key) {
  element value;
  if (object[key].get(value) != simdjson::SUCCESS) return JsonError("missing key '" + std::string(key) + "'");
  return value;
}

bool Has(element object, std::string_view key) {
  element value;
  return object[key].get(value) == simdjson::SUCCESS;
}

Result<simdjson::dom::array> GetArray(element object, std::string_view key) {
  ASSIGN_OR_RETURN(element value, Get(object, key));
  simdjson::dom::array array;
  if (value.get_array().get(array) != simdjson::SUCCESS) return JsonError("'" + std::string(key) + "' is not an array");
  return array;
}

Result<std::string> GetString(element object, std::string_view key) {
  ASSIGN_OR_RETURN(element value, Get(object, key));
  std::string_view text;
  if (value.get_string().get(text) != simdjson::SUCCESS) return JsonError("'" + std::string(key) + "' is not a string");
  return std::string(text);
}

Result<int64_t> GetInt(element object, std::string_view key) {
  ASSIGN_OR_RETURN(element value, Get(object, key));
  int64_t number = 0;
  if (value.get_int64().get(number) != simdjson::SUCCESS) return JsonError("'" + std::string(key) + "' is not an integer");
  return number;
}

Result<bool> GetBool(element object, std::string_view key) {
  ASSIGN_OR_RETURN(element value, Get(object, key));
  bool flag = false;
  if (value.get_bool().get(flag) != simdjson::SUCCESS) return JsonError("'" + std::string(key) + "' is not a bool");
  return flag;
}

Result<TimeUnit> ParseTimeUnit(const std::string& unit) {
  if (unit == "SECOND") return TimeUnit::kSecond;
  if (unit == "MILLISECOND") return TimeUnit::kMillisecond;
  if (unit == "MICROSECOND") return TimeUnit::kMicrosecond;
  if (unit == "NANOSECOND") return TimeUnit::kNanosecond;
  return JsonError("unknown time unit " + unit);
}

Result<TypeDesc> ParseType(element json) {
  TypeDesc t;
  ASSIGN_OR_RETURN(const std::string name, GetString(json, "name"));
  if (name == "null") {
    t.id = TypeId::kNull;
  } else if (name == "bool") {
    t.id = TypeId::kBool;
  } else if (name == "int") {
    t.id = TypeId::kInt;
    ASSIGN_OR_RETURN(t.is_signed, GetBool(json, "isSigned"));
    ASSIGN_OR_RETURN(const int64_t bits, GetInt(json, "bitWidth"));
    t.bit_width = static_cast<int32_t>(bits);
  } else if (name == "floatingpoint") {
    t.id = TypeId::kFloatingPoint;
    ASSIGN_OR_RETURN(const std::string p, GetString(json, "precision"));
    t.precision = p == "HALF" ? FloatPrecision::kHalf : p == "SINGLE" ? FloatPrecision::kSingle : FloatPrecision::kDouble;
  } else if (name == "decimal") {
    t.id = TypeId::kDecimal;
    ASSIGN_OR_RETURN(const int64_t precision, GetInt(json, "precision"));
    ASSIGN_OR_RETURN(const int64_t scale, GetInt(json, "scale"));
    t.decimal_precision = static_cast<int32_t>(precision);
    t.decimal_scale = static_cast<int32_t>(scale);
    t.bit_width = 128;
    if (Has(json, "bitWidth")) {
      ASSIGN_OR_RETURN(const int64_t bits, GetInt(json, "bitWidth"));
      t.bit_width = static_cast<int32_t>(bits);
    }
  } else if (name == "date") {
    t.id = TypeId::kDate;
    ASSIGN_OR_RETURN(const std::string unit, GetString(json, "unit"));
    t.date_unit = unit == "DAY" ? DateUnit::kDay : DateUnit::kMillisecond;
  } else if (name == "time" || name == "timestamp" || name == "duration") {
    t.id = name == "time" ? TypeId::kTime : name == "timestamp" ? TypeId::kTimestamp : TypeId::kDuration;
    ASSIGN_OR_RETURN(const std::string unit, GetString(json, "unit"));
    ASSIGN_OR_RETURN(t.time_unit, ParseTimeUnit(unit));
    if (t.id == TypeId::kTime) {
      ASSIGN_OR_RETURN(const int64_t bits, GetInt(json, "bitWidth"));
      t.bit_width = static_cast<int32_t>(bits);
    }
    if (t.id == TypeId::kTimestamp && Has(json, "timezone")) {
      ASSIGN_OR_RETURN(t.timezone, GetString(json, "timezone"));
    }
  } else if (name == "interval") {
    t.id = TypeId::kInterval;
    ASSIGN_OR_RETURN(const std::string unit, GetString(json, "unit"));
    t.interval_unit = unit == "YEAR_MONTH" ? IntervalUnit::kYearMonth
                      : unit == "DAY_TIME" ? IntervalUnit::kDayTime
                                           : IntervalUnit::kMonthDayNano;
  } else if (name == "binary" || name == "utf8" || name == "largebinary" || name == "largeutf8") {
    t.id = name == "binary"        ? TypeId::kBinary
           : name == "utf8"        ? TypeId::kUtf8
           : name == "largebinary" ? TypeId::kLargeBinary
                                   : TypeId::kLargeUtf8;
  } else if (name == "fixedsizebinary") {
    t.id = TypeId::kFixedSizeBinary;
    ASSIGN_OR_RETURN(const int64_t width, GetInt(json, "byteWidth"));
    t.byte_width = static_cast<int32_t>(width);
  } else if (name == "list" || name == "largelist" || name == "struct") {
    t.id = name == "list" ? TypeId::kList : name == "largelist" ? TypeId::kLargeList : TypeId::kStruct;
  } else if (name == "fixedsizelist") {
    t.id = TypeId::kFixedSizeList;
    ASSIGN_OR_RETURN(const int64_t size, GetInt(json, "listSize"));
    t.list_size = static_cast<int32_t>(size);
  } else if (name == "map") {
    t.id = TypeId::kMap;
    ASSIGN_OR_RETURN(t.keys_sorted, GetBool(json, "keysSorted"));
  } else if (name == "union") {
    t.id = TypeId::kUnion;
    ASSIGN_OR_RETURN(const std::string mode, GetString(json, "mode"));
    t.union_mode = mode == "SPARSE" ? UnionMode::kSparse : UnionMode::kDense;
    ASSIGN_OR_RETURN(const simdjson::dom::array ids, GetArray(json, "typeIds"));
    for (element id : ids) {
      int64_t value = 0;
      if (id.get_int64().get(value) != simdjson::SUCCESS) return JsonError("a type id is not an integer");
      t.union_type_ids.push_back(static_cast<int32_t>(value));
    }
  } else {
    return JsonError("unknown type name " + name);
  }
  return t;
}

Result<KeyValueMetadata> ParseMetadata(element owner) {
  KeyValueMetadata out;
  if (!Has(owner, "metadata")) return out;
  ASSIGN_OR_RETURN(const simdjson::dom::array entries, GetArray(owner, "metadata"));
  for (element kv : entries) {
    ASSIGN_OR_RETURN(std::string key, GetString(kv, "key"));
    ASSIGN_OR_RETURN(std::string value, GetString(kv, "value"));
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}

Result<FieldDesc> ParseField(element json) {
  FieldDesc f;
  ASSIGN_OR_RETURN(f.name, GetString(json, "name"));
  ASSIGN_OR_RETURN(f.nullable, GetBool(json, "nullable"));
  ASSIGN_OR_RETURN(element type, Get(json, "type"));
  ASSIGN_OR_RETURN(f.type, ParseType(type));
  if (Has(json, "children")) {
    ASSIGN_OR_RETURN(const simdjson::dom::array children, GetArray(json, "children"));
    for (element child : children) {
      ASSIGN_OR_RETURN(FieldDesc parsed, ParseField(child));
      f.children.push_back(std::move(parsed));
    }
  }
  if (Has(json, "dictionary")) {
    ASSIGN_OR_RETURN(element dict, Get(json, "dictionary"));
    DictionaryDesc d;
    ASSIGN_OR_RETURN(d.id, GetInt(dict, "id"));
    ASSIGN_OR_RETURN(element index_type, Get(dict, "indexType"));
    ASSIGN_OR_RETURN(d.index_type, ParseType(index_type));
    ASSIGN_OR_RETURN(d.ordered, GetBool(dict, "isOrdered"));
    f.dictionary = std::move(d);
  }
  ASSIGN_OR_RETURN(f.metadata, ParseMetadata(json));
  return f;
}

void FieldToString(const FieldDesc& field, int indent, std::string& out) {
  out += std::string(indent * 2, ' ') + field.name + ": " + TypeToString(field.type) +
         (field.nullable ? "" : " not null");
  if (field.dictionary) {
    out += " dictionary(id " + std::to_string(field.dictionary->id) + ", " +
           TypeToString(field.dictionary->index_type) + (field.dictionary->ordered ? ", ordered" : "") + ")";
  }
  for (const auto& [key, value] : field.metadata) out += " {" + key + "=" + value + "}";
  out += "\n";
  for (const FieldDesc& child : field.children) FieldToString(child, indent + 1, out);
}

}  // namespace

std::vector<std::filesystem::path> IntegrationCases() {
  namespace fs = std::filesystem;
  std::vector<fs::path> cases;
  const fs::path root = recflow::testing::TestdataDir() / "arrow-integration";
  if (!fs::is_directory(root)) return cases;
  for (const auto& dir : fs::directory_iterator(root)) {
    if (!dir.is_directory()) continue;
    for (const auto& entry : fs::directory_iterator(dir.path())) {
      if (entry.path().extension() == ".stream") cases.push_back(fs::path(entry.path()).replace_extension());
    }
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

Result<std::string> ReadDecompressedText(const std::string& path) {
  ASSIGN_OR_RETURN(auto in, OpenDecompressedFile(path));
  std::string text;
  char chunk[1 << 16];
  while (true) {
    ASSIGN_OR_RETURN(const int64_t got, in->Read(chunk, sizeof(chunk)));
    if (got == 0) break;
    text.append(chunk, static_cast<size_t>(got));
  }
  return text;
}

Result<IntegrationJson> ReadIntegrationJson(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadDecompressedText(path));
  simdjson::dom::parser parser;
  element doc;
  const simdjson::padded_string padded(text);
  if (parser.parse(padded).get(doc) != simdjson::SUCCESS) return JsonError(path + " is not JSON");
  IntegrationJson out;
  ASSIGN_OR_RETURN(element schema, Get(doc, "schema"));
  ASSIGN_OR_RETURN(const simdjson::dom::array fields, GetArray(schema, "fields"));
  for (element field : fields) {
    ASSIGN_OR_RETURN(FieldDesc parsed, ParseField(field));
    out.schema.fields.push_back(std::move(parsed));
  }
  ASSIGN_OR_RETURN(out.schema.metadata, ParseMetadata(schema));
  ASSIGN_OR_RETURN(const simdjson::dom::array batches, GetArray(doc, "batches"));
  for (element batch : batches) {
    ASSIGN_OR_RETURN(const int64_t count, GetInt(batch, "count"));
    out.batch_counts.push_back(count);
  }
  if (Has(doc, "dictionaries")) {
    ASSIGN_OR_RETURN(const simdjson::dom::array dictionaries, GetArray(doc, "dictionaries"));
    for (element dict : dictionaries) {
      ASSIGN_OR_RETURN(const int64_t id, GetInt(dict, "id"));
      ASSIGN_OR_RETURN(element data, Get(dict, "data"));
      ASSIGN_OR_RETURN(const int64_t count, GetInt(data, "count"));
      out.dictionaries.emplace_back(id, count);
    }
  }
  return out;
}

std::string SchemaToString(const SchemaDesc& schema) {
  std::string out;
  for (const FieldDesc& field : schema.fields) FieldToString(field, 0, out);
  for (const auto& [key, value] : schema.metadata) out += "schema metadata {" + key + "=" + value + "}\n";
  return out;
}

}  // namespace recflow::arrow_ipc::testing
