// Parsing partition directory text (Spark's grammar, or as a recorded type) and building constant partition columns.
#include "recflow/dataset/partition_values.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

#include "recflow/columnar/builder.h"

namespace recflow::dataset {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

/// Skips ASCII digits from `i`; returns how many there were.
size_t SkipDigits(std::string_view s, size_t* i) {
  const size_t start = *i;
  while (*i < s.size() && IsDigit(s[*i])) ++*i;
  return *i - start;
}

/// `[+]?[0-9]+` fitting in uint64.
std::optional<uint64_t> ParseDecimalUInt64(std::string_view s) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  uint64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (s.empty() || !IsDigit(s[0]) || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

/// A float as GroupRowsByPartition writes it (std::to_chars: `inf`, `-inf`, `nan`, `-nan`) or
/// as ParseJavaDouble reads it.
std::optional<double> ParseFloatText(std::string_view s) {
  if (s == "inf") return std::numeric_limits<double>::infinity();
  if (s == "-inf") return -std::numeric_limits<double>::infinity();
  if (s == "nan" || s == "-nan") return std::numeric_limits<double>::quiet_NaN();
  return ParseJavaDouble(s);
}

/// The values of TypeId `id`'s integer type, if it is one.
bool IntegerRange(TypeId id, int64_t* min, uint64_t* max) {
  switch (id) {
    case TypeId::kInt8: *min = INT8_MIN; *max = INT8_MAX; return true;
    case TypeId::kInt16: *min = INT16_MIN; *max = INT16_MAX; return true;
    case TypeId::kInt32: *min = INT32_MIN; *max = INT32_MAX; return true;
    case TypeId::kInt64: *min = INT64_MIN; *max = INT64_MAX; return true;
    case TypeId::kUInt8: *min = 0; *max = UINT8_MAX; return true;
    case TypeId::kUInt16: *min = 0; *max = UINT16_MAX; return true;
    case TypeId::kUInt32: *min = 0; *max = UINT32_MAX; return true;
    case TypeId::kUInt64: *min = 0; *max = UINT64_MAX; return true;
    default: return false;
  }
}

bool IsSigned(TypeId id) {
  return id == TypeId::kInt8 || id == TypeId::kInt16 || id == TypeId::kInt32 || id == TypeId::kInt64;
}

/// True when `value` is a value of `type` (see PartitionValue).
bool Holds(const DataType& type, const PartitionValue& value) {
  int64_t min = 0;
  uint64_t max = 0;
  if (IntegerRange(type.id(), &min, &max)) {
    if (const auto* i = std::get_if<int64_t>(&value)) {
      return IsSigned(type.id()) && *i >= min && *i <= static_cast<int64_t>(max);
    }
    const auto* u = std::get_if<uint64_t>(&value);
    return u != nullptr && !IsSigned(type.id()) && *u <= max;
  }
  switch (type.id()) {
    case TypeId::kBool: return std::holds_alternative<bool>(value);
    case TypeId::kFloat32: case TypeId::kFloat64: return std::holds_alternative<double>(value);
    case TypeId::kUtf8: return std::holds_alternative<std::string>(value);
    default: return false;
  }
}

template <typename T, typename V>
Result<std::shared_ptr<ArrayData>> ConstantNumbers(V value, int64_t num_rows) {
  NumericBuilder<T> builder;
  RETURN_NOT_OK(builder.Reserve(num_rows));
  for (int64_t row = 0; row < num_rows; ++row) builder.UnsafeAppend(static_cast<T>(value));
  return builder.Finish();
}

/// `num_rows` copies of non-null `value`, a value of `field`'s type (Holds).
Result<std::shared_ptr<ArrayData>> ConstantValues(const Field& field, const PartitionValue& value, int64_t num_rows) {
  switch (field.type()->id()) {
    case TypeId::kBool: {
      BooleanBuilder builder;
      RETURN_NOT_OK(builder.Reserve(num_rows));
      for (int64_t row = 0; row < num_rows; ++row) builder.UnsafeAppend(std::get<bool>(value));
      return builder.Finish();
    }
    case TypeId::kInt8: return ConstantNumbers<int8_t>(std::get<int64_t>(value), num_rows);
    case TypeId::kInt16: return ConstantNumbers<int16_t>(std::get<int64_t>(value), num_rows);
    case TypeId::kInt32: return ConstantNumbers<int32_t>(std::get<int64_t>(value), num_rows);
    case TypeId::kInt64: return ConstantNumbers<int64_t>(std::get<int64_t>(value), num_rows);
    case TypeId::kUInt8: return ConstantNumbers<uint8_t>(std::get<uint64_t>(value), num_rows);
    case TypeId::kUInt16: return ConstantNumbers<uint16_t>(std::get<uint64_t>(value), num_rows);
    case TypeId::kUInt32: return ConstantNumbers<uint32_t>(std::get<uint64_t>(value), num_rows);
    case TypeId::kUInt64: return ConstantNumbers<uint64_t>(std::get<uint64_t>(value), num_rows);
    case TypeId::kFloat32: return ConstantNumbers<float>(std::get<double>(value), num_rows);
    case TypeId::kFloat64: return ConstantNumbers<double>(std::get<double>(value), num_rows);
    default: break;  // kUtf8 (Holds admits no other type)
  }
  const std::string& text = std::get<std::string>(value);
  const auto size = static_cast<int64_t>(text.size());
  if (size > 0 && num_rows > kMaxInt32Offset / size) {
    return Status::DataError(std::to_string(num_rows) + " rows of a " + std::to_string(size) +
                             "-byte partition value exceed a utf8 column's capacity")
        .WithField(field.name());
  }
  BinaryBuilder strings(field.type());
  RETURN_NOT_OK(strings.Reserve(num_rows));
  RETURN_NOT_OK(strings.ReserveData(size * num_rows));
  for (int64_t row = 0; row < num_rows; ++row) RETURN_NOT_OK(strings.Append(text));
  return strings.Finish();
}

}  // namespace

bool IsDecimalInteger(std::string_view s) {
  size_t i = !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0;
  return SkipDigits(s, &i) > 0 && i == s.size();
}

std::optional<int64_t> ParseDecimalInt64(std::string_view s) {
  if (!IsDecimalInteger(s)) return std::nullopt;
  if (s[0] == '+') s.remove_prefix(1);
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

std::optional<double> ParseJavaDouble(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (s == "Infinity")
    return negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  size_t i = 0;
  size_t digits = SkipDigits(s, &i);
  if (i < s.size() && s[i] == '.') {
    ++i;
    digits += SkipDigits(s, &i);
  }
  if (digits == 0) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (SkipDigits(s, &i) == 0) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  double value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value, std::chars_format::general);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return negative ? -value : value;
}

Result<PartitionValue> ParsePartitionValue(std::string_view text, const DataType& type) {
  std::optional<PartitionValue> value;
  int64_t min = 0;
  uint64_t max = 0;
  if (IntegerRange(type.id(), &min, &max)) {
    if (IsSigned(type.id())) {
      if (std::optional<int64_t> i = ParseDecimalInt64(text)) value = *i;
    } else if (std::optional<uint64_t> u = ParseDecimalUInt64(text)) {
      value = *u;
    }
  } else if (type.id() == TypeId::kBool) {
    if (text == "true" || text == "false") value = text == "true";
  } else if (type.id() == TypeId::kFloat32 || type.id() == TypeId::kFloat64) {
    std::optional<double> d = ParseFloatText(text);
    const bool fits = d && (type.id() == TypeId::kFloat64 || !std::isfinite(*d) ||
                            std::fabs(*d) <= static_cast<double>(std::numeric_limits<float>::max()));
    if (fits) value = *d;
  } else if (type.id() == TypeId::kUtf8) {
    value = std::string(text);
  }
  if (!value || !Holds(type, *value)) {
    return Status::DataError("partition value '" + std::string(text) + "' is not a value of type " + type.ToString());
  }
  return std::move(*value);
}

Result<std::vector<std::shared_ptr<ArrayData>>> MakePartitionColumns(const Schema& partition_schema,
                                                                     const std::vector<PartitionValue>& values,
                                                                     int64_t num_rows) {
  if (num_rows < 0) return Status::InvalidArgument("negative row count " + std::to_string(num_rows));
  if (values.size() != static_cast<size_t>(partition_schema.num_fields())) {
    return Status::InvalidArgument(std::to_string(values.size()) + " partition values for " +
                                   std::to_string(partition_schema.num_fields()) + " partition columns");
  }
  std::vector<std::shared_ptr<ArrayData>> columns;
  columns.reserve(values.size());
  for (int c = 0; c < partition_schema.num_fields(); ++c) {
    const Field& field = *partition_schema.field(c);
    const PartitionValue& value = values[static_cast<size_t>(c)];
    if (std::holds_alternative<std::monostate>(value)) {
      if (!field.nullable()) {
        return Status::TypeError("null partition value in a non-nullable column").WithField(field.name());
      }
      ASSIGN_OR_RETURN(std::unique_ptr<ArrayBuilder> builder, MakeBuilder(field.type()));
      RETURN_NOT_OK(builder->AppendNulls(num_rows));
      ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> nulls, builder->Finish());
      columns.push_back(std::move(nulls));
      continue;
    }
    if (!Holds(*field.type(), value)) {
      return Status::TypeError("partition value does not match the column type " + field.type()->ToString())
          .WithField(field.name());
    }
    ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> column, ConstantValues(field, value, num_rows));
    columns.push_back(std::move(column));
  }
  return columns;
}

std::string PartitionFloatText(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

std::optional<std::string> PartitionValueText(const PartitionValue& value) {
  struct Visitor {
    std::optional<std::string> operator()(std::monostate) const { return std::nullopt; }
    std::optional<std::string> operator()(bool v) const { return std::string(v ? "true" : "false"); }
    std::optional<std::string> operator()(int64_t v) const { return std::to_string(v); }
    std::optional<std::string> operator()(uint64_t v) const { return std::to_string(v); }
    std::optional<std::string> operator()(double v) const { return PartitionFloatText(v); }
    std::optional<std::string> operator()(const std::string& v) const { return v; }
  };
  return std::visit(Visitor{}, value);
}

}  // namespace recflow::dataset
