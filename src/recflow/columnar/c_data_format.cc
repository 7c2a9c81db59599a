// FormatOf and TypeFromFormat: every type the C Data Interface specification names.
#include "recflow/columnar/c_data_format.h"

#include <charconv>
#include <limits>

#include "recflow/columnar/c_data_abi.h"

namespace recflow::c_data {

namespace {

char UnitLetter(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 's';
    case TimeUnit::kMilli: return 'm';
    case TimeUnit::kMicro: return 'u';
    case TimeUnit::kNano: return 'n';
  }
  return '?';
}

Result<TimeUnit> UnitOf(char letter, std::string_view format) {
  switch (letter) {
    case 's': return TimeUnit::kSecond;
    case 'm': return TimeUnit::kMilli;
    case 'u': return TimeUnit::kMicro;
    case 'n': return TimeUnit::kNano;
    default: return Status::DataError("unknown time unit in format '" + std::string(format) + "'");
  }
}

/// Comma-separated int32 values (non-empty list); DataError naming `format` otherwise.
Result<std::vector<int32_t>> ParseInts(std::string_view text, std::string_view format) {
  std::vector<int32_t> values;
  while (true) {
    int32_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end == text.data()) {
      return Status::DataError("malformed numbers in format '" + std::string(format) + "'");
    }
    values.push_back(value);
    text.remove_prefix(static_cast<size_t>(end - text.data()));
    if (text.empty()) return values;
    if (text.front() != ',') return Status::DataError("malformed numbers in format '" + std::string(format) + "'");
    text.remove_prefix(1);
  }
}

Status ExpectChildren(const std::vector<FieldPtr>& children, size_t n, std::string_view format) {
  if (children.size() != n) {
    return Status::DataError("format '" + std::string(format) + "' needs " + std::to_string(n) + " children, got " +
                             std::to_string(children.size()));
  }
  return Status::OK();
}

}  // namespace

std::string FormatOf(const DataType& type) {
  const TypeParams& p = type.params();
  switch (type.id()) {
    case TypeId::kNull: return "n";
    case TypeId::kBool: return "b";
    case TypeId::kInt8: return "c";
    case TypeId::kUInt8: return "C";
    case TypeId::kInt16: return "s";
    case TypeId::kUInt16: return "S";
    case TypeId::kInt32: return "i";
    case TypeId::kUInt32: return "I";
    case TypeId::kInt64: return "l";
    case TypeId::kUInt64: return "L";
    case TypeId::kFloat16: return "e";
    case TypeId::kFloat32: return "f";
    case TypeId::kFloat64: return "g";
    case TypeId::kBinary: return "z";
    case TypeId::kLargeBinary: return "Z";
    case TypeId::kUtf8: return "u";
    case TypeId::kLargeUtf8: return "U";
    case TypeId::kDecimal128: return "d:" + std::to_string(p.width) + "," + std::to_string(p.scale);
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal256:
      return "d:" + std::to_string(p.width) + "," + std::to_string(p.scale) + "," + std::to_string(type.bit_width());
    case TypeId::kBinaryView: return "vz";
    case TypeId::kUtf8View: return "vu";
    case TypeId::kListView: return "+vl";
    case TypeId::kLargeListView: return "+vL";
    case TypeId::kRunEndEncoded: return "+r";
    case TypeId::kFixedSizeBinary: return "w:" + std::to_string(p.width);
    case TypeId::kDate32: return "tdD";
    case TypeId::kDate64: return "tdm";
    case TypeId::kTime32:
    case TypeId::kTime64: return std::string("tt") + UnitLetter(p.unit);
    case TypeId::kTimestamp: return std::string("ts") + UnitLetter(p.unit) + ":" + p.timezone;
    case TypeId::kDuration: return std::string("tD") + UnitLetter(p.unit);
    case TypeId::kInterval: {
      static constexpr const char* kFormats[] = {"tiM", "tiD", "tin"};
      return kFormats[static_cast<int>(p.interval)];
    }
    case TypeId::kList: return "+l";
    case TypeId::kLargeList: return "+L";
    case TypeId::kFixedSizeList: return "+w:" + std::to_string(p.width);
    case TypeId::kStruct: return "+s";
    case TypeId::kMap: return "+m";
    case TypeId::kUnion: {
      std::string format = p.union_mode == UnionMode::kDense ? "+ud:" : "+us:";
      for (size_t i = 0; i < p.type_codes.size(); ++i) {
        if (i > 0) format.push_back(',');
        format += std::to_string(p.type_codes[i]);
      }
      return format;
    }
    case TypeId::kDictionary: return FormatOf(*p.index_type);
  }
  return "?";
}

Result<DataTypePtr> TypeFromFormat(std::string_view format, std::vector<FieldPtr> children, int64_t flags) {
  const auto unknown = [&] { return Status::DataError("unknown type format '" + std::string(format) + "'"); };
  const bool nested = !format.empty() && format[0] == '+';
  if (!nested) RETURN_NOT_OK(ExpectChildren(children, 0, format));
  if (format.size() == 1) {
    switch (format[0]) {
      case 'n': return null();
      case 'b': return boolean();
      case 'c': return int8();
      case 'C': return uint8();
      case 's': return int16();
      case 'S': return uint16();
      case 'i': return int32();
      case 'I': return uint32();
      case 'l': return int64();
      case 'L': return uint64();
      case 'e': return float16();
      case 'f': return float32();
      case 'g': return float64();
      case 'z': return binary();
      case 'Z': return large_binary();
      case 'u': return utf8();
      case 'U': return large_utf8();
      default: return unknown();
    }
  }
  if (format.starts_with("d:")) {
    ASSIGN_OR_RETURN(std::vector<int32_t> ints, ParseInts(format.substr(2), format));
    const bool known_width =
        ints.size() == 2 || (ints.size() == 3 && (ints[2] == 32 || ints[2] == 64 || ints[2] == 128 || ints[2] == 256));
    if (ints.size() < 2 || !known_width) return unknown();
    return decimal(ints[0], ints[1], ints.size() == 3 ? ints[2] : 128);
  }
  if (format.starts_with("w:")) {
    ASSIGN_OR_RETURN(std::vector<int32_t> ints, ParseInts(format.substr(2), format));
    if (ints.size() != 1 || ints[0] < 0) return unknown();
    return fixed_size_binary(ints[0]);
  }
  if (format == "vz") return binary_view();
  if (format == "vu") return utf8_view();
  if (format == "tdD") return date32();
  if (format == "tdm") return date64();
  if (format == "tiM") return interval(IntervalUnit::kYearMonth);
  if (format == "tiD") return interval(IntervalUnit::kDayTime);
  if (format == "tin") return interval(IntervalUnit::kMonthDayNano);
  if (format.size() == 3 && format.starts_with("tt")) {
    ASSIGN_OR_RETURN(TimeUnit unit, UnitOf(format[2], format));
    return unit == TimeUnit::kSecond || unit == TimeUnit::kMilli ? time32(unit) : time64(unit);
  }
  if (format.size() == 3 && format.starts_with("tD")) {
    ASSIGN_OR_RETURN(TimeUnit unit, UnitOf(format[2], format));
    return duration(unit);
  }
  if (format.size() >= 4 && format.starts_with("ts") && format[3] == ':') {
    ASSIGN_OR_RETURN(TimeUnit unit, UnitOf(format[2], format));
    return timestamp(unit, std::string(format.substr(4)));
  }
  if (format == "+l" || format == "+L") {
    RETURN_NOT_OK(ExpectChildren(children, 1, format));
    return format == "+l" ? list(children[0]) : large_list(children[0]);
  }
  if (format == "+vl" || format == "+vL") {
    RETURN_NOT_OK(ExpectChildren(children, 1, format));
    return format == "+vl" ? list_view(children[0]) : large_list_view(children[0]);
  }
  if (format == "+r") {
    RETURN_NOT_OK(ExpectChildren(children, 2, format));
    const TypeId run_ends = children[0]->type()->id();
    if (run_ends != TypeId::kInt16 && run_ends != TypeId::kInt32 && run_ends != TypeId::kInt64) {
      return Status::DataError("run ends of type " + children[0]->type()->ToString() + ", not int16, int32 or int64");
    }
    return run_end_encoded(children[0]->type(), children[1]->type());
  }
  if (format.starts_with("+w:")) {
    RETURN_NOT_OK(ExpectChildren(children, 1, format));
    ASSIGN_OR_RETURN(std::vector<int32_t> ints, ParseInts(format.substr(3), format));
    if (ints.size() != 1 || ints[0] < 0) return unknown();
    return fixed_size_list(children[0], ints[0]);
  }
  if (format == "+s") return struct_(std::move(children));
  if (format == "+m") {
    RETURN_NOT_OK(ExpectChildren(children, 1, format));
    const DataType& entries = *children[0]->type();
    if (entries.id() != TypeId::kStruct || entries.fields().size() != 2) {
      return Status::DataError("a map's child must be a struct of key and value");
    }
    return map(entries.fields()[0], entries.fields()[1], (flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0,
               children[0]->name());
  }
  if (format.starts_with("+ud:") || format.starts_with("+us:") || format == "+ud" || format == "+us") {
    std::vector<int8_t> codes;
    if (format.size() > 4) {
      ASSIGN_OR_RETURN(std::vector<int32_t> ints, ParseInts(format.substr(4), format));
      for (int32_t code : ints) {
        if (code < 0 || code > std::numeric_limits<int8_t>::max()) return unknown();
        codes.push_back(static_cast<int8_t>(code));
      }
    }
    if (codes.size() != children.size()) {
      return Status::DataError("union format '" + std::string(format) + "' lists " + std::to_string(codes.size()) +
                               " type codes for " + std::to_string(children.size()) + " children");
    }
    return union_(format[2] == 'd' ? UnionMode::kDense : UnionMode::kSparse, std::move(children), std::move(codes));
  }
  return unknown();
}

}  // namespace recflow::c_data
