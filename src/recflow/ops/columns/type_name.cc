// ParseTypeName: a small recursive reader of type names.
#include "recflow/ops/columns/type_name.h"

#include <string>

#include "recflow/ops/columns/column_util_internal.h"

namespace recflow::ops {

namespace {

Result<DataTypePtr> ParseTimestamp(std::string_view params) {
  std::string_view unit_text = params;
  std::string timezone;
  if (const size_t comma = params.find(','); comma != std::string_view::npos) {
    unit_text = params.substr(0, comma);
    std::string_view zone = internal::TrimSpaces(params.substr(comma + 1));
    if (zone.starts_with("tz=")) zone.remove_prefix(3);
    if (zone.empty()) return Status::InvalidArgument("timestamp: empty time zone");
    timezone = std::string(zone);
  }
  unit_text = internal::TrimSpaces(unit_text);
  TimeUnit unit;
  if (unit_text == "s") {
    unit = TimeUnit::kSecond;
  } else if (unit_text == "ms") {
    unit = TimeUnit::kMilli;
  } else if (unit_text == "us") {
    unit = TimeUnit::kMicro;
  } else if (unit_text == "ns") {
    unit = TimeUnit::kNano;
  } else {
    return Status::InvalidArgument("timestamp: unknown unit '" + std::string(unit_text) + "' (s, ms, us, ns)");
  }
  return timestamp(unit, std::move(timezone));
}

}  // namespace

Result<DataTypePtr> ParseTypeName(std::string_view text) {
  text = internal::TrimSpaces(text);
  if (text.starts_with("list<") && text.ends_with(">")) {
    ASSIGN_OR_RETURN(DataTypePtr item, ParseTypeName(text.substr(5, text.size() - 6)));
    return list(std::move(item));
  }
  if (text.starts_with("timestamp[") && text.ends_with("]")) return ParseTimestamp(text.substr(10, text.size() - 11));
  if (text == "timestamp") return timestamp(TimeUnit::kMicro);
  if (DataTypePtr scalar = ScalarTypeFromName(text)) return scalar;
  if (text == "date32" || text == "date") return date32();
  return Status::InvalidArgument("unknown type '" + std::string(text) +
                                 "' (bool, int8..int64, uint8..uint64, float32, float64, string, binary, date32, "
                                 "timestamp[s|ms|us|ns], list<T>)");
}

}  // namespace recflow::ops
