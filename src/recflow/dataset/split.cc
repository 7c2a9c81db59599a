// SplitToJson and ParseSplit: a split as one line of JSON (JsonWriter out, simdjson DOM in).
#include "recflow/dataset/split.h"

#include <simdjson.h>

#include "recflow/columnar/type.h"
#include "recflow/columnar/utf8.h"
#include "recflow/formats/jsonl/json_writer.h"

namespace recflow::dataset {

namespace {

/// The longest split text ParseSplit reads.
constexpr size_t kMaxSplitText = size_t{1} << 20;

Status Bad(const std::string& why) { return Status::InvalidArgument("bad split: " + why); }

Result<std::string> Text(simdjson::dom::element value, std::string_view key, bool may_be_empty) {
  std::string_view text;
  if (value.get_string().get(text)) return Bad(std::string(key) + " must be a string");
  if ((!may_be_empty && text.empty()) || text.find('\0') != std::string_view::npos || !IsValidUtf8(text)) {
    return Bad(std::string(key) + " must be " + (may_be_empty ? "" : "non-empty ") + "UTF-8 text without NUL");
  }
  return std::string(text);
}

Result<int64_t> Count(simdjson::dom::element value, std::string_view key) {
  int64_t number = 0;
  if (value.get_int64().get(number) || number < 0) return Bad(std::string(key) + " must be a non-negative integer");
  return number;
}

Status ParsePartition(simdjson::dom::element value, Split* split) {
  static constexpr char kShape[] = "partition must be an array of [key, type, value] arrays";
  simdjson::dom::array levels;
  if (value.get_array().get(levels)) return Bad(kShape);
  for (simdjson::dom::element level : levels) {
    simdjson::dom::array triple;
    if (level.get_array().get(triple) || triple.size() != 3) return Bad(kShape);
    SplitPartitionValue part;
    ASSIGN_OR_RETURN(part.key, Text(triple.at(0).value_unsafe(), "a partition key", false));
    ASSIGN_OR_RETURN(part.type, Text(triple.at(1).value_unsafe(), "a partition type", false));
    const simdjson::dom::element text = triple.at(2).value_unsafe();
    if (!text.is_null()) {
      ASSIGN_OR_RETURN(part.text, Text(text, "a partition value", true));
    }
    split->partition.push_back(std::move(part));
  }
  return Status::OK();
}

}  // namespace

Result<SchemaPtr> PartitionSchemaOf(const Split& split) {
  std::vector<FieldPtr> fields;
  for (const SplitPartitionValue& part : split.partition) {
    DataTypePtr type = ScalarTypeFromName(part.type);
    if (type == nullptr || type->id() == TypeId::kBinary) {
      return Status::InvalidArgument("bad split: partition column '" + part.key + "' has type '" + part.type +
                                     "', which no partition directory holds");
    }
    fields.push_back(Field::Make(part.key, std::move(type)));
  }
  return Schema::Make(std::move(fields));
}

std::string SplitToJson(const Split& split) {
  std::string text;
  jsonl::JsonWriter w(&text);
  w.BeginObject();
  w.Key("path");
  w.String(split.path);
  w.Key("format");
  w.String(split.format);
  w.Key("compression");
  w.String(split.compression);
  w.Key("unit");
  w.String(formats::SplitUnitName(split.unit));
  w.Key("begin");
  w.Int(split.begin);
  w.Key("end");
  w.Int(split.end);
  w.Key("file_size");
  w.Int(split.file_size);
  w.Key("file_mtime_ns");
  w.Int(split.file_mtime_ns);
  w.Key("partition");
  w.BeginArray();
  for (const SplitPartitionValue& part : split.partition) {
    w.BeginArray();
    w.String(part.key);
    w.String(part.type);
    if (part.text.has_value()) {
      w.String(*part.text);
    } else {
      w.Null();
    }
    w.EndArray();
  }
  w.EndArray();
  w.EndObject();
  return text;
}

Result<Split> ParseSplit(std::string_view json) {
  if (json.size() > kMaxSplitText) return Bad("longer than " + std::to_string(kMaxSplitText) + " bytes");
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(json);
  simdjson::dom::element root;
  if (auto error = parser.parse(padded).get(root)) return Bad(std::string("not JSON: ") + simdjson::error_message(error));
  simdjson::dom::object object;
  if (root.get_object().get(object)) return Bad("not a JSON object");
  Split split;
  std::vector<std::string_view> seen;
  for (auto [key, value] : object) {
    for (std::string_view k : seen) {
      if (k == key) return Bad("'" + std::string(key) + "' given twice");
    }
    seen.push_back(key);
    if (key == "path") {
      ASSIGN_OR_RETURN(split.path, Text(value, key, false));
    } else if (key == "format") {
      ASSIGN_OR_RETURN(split.format, Text(value, key, false));
    } else if (key == "compression") {
      ASSIGN_OR_RETURN(split.compression, Text(value, key, false));
    } else if (key == "unit") {
      ASSIGN_OR_RETURN(std::string unit, Text(value, key, false));
      if (unit != "bytes" && unit != "batches") return Bad("unit must be \"bytes\" or \"batches\"");
      split.unit = unit == "bytes" ? SplitUnit::kBytes : SplitUnit::kBatches;
    } else if (key == "begin") {
      ASSIGN_OR_RETURN(split.begin, Count(value, key));
    } else if (key == "end") {
      ASSIGN_OR_RETURN(split.end, Count(value, key));
    } else if (key == "file_size") {
      ASSIGN_OR_RETURN(split.file_size, Count(value, key));
    } else if (key == "file_mtime_ns") {
      ASSIGN_OR_RETURN(split.file_mtime_ns, Count(value, key));
    } else if (key == "partition") {
      RETURN_NOT_OK(ParsePartition(value, &split));
    } else {
      return Bad("unknown member '" + std::string(key) + "'");
    }
  }
  if (seen.size() != 9) return Bad("every member (path, format, compression, unit, begin, end, file_size, file_mtime_ns, partition) is required");
  if (split.end < split.begin) return Bad("end is before begin");
  return split;
}

}  // namespace recflow::dataset
