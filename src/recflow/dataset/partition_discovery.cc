// DiscoverPartitions (layout checks, Spark-style type inference) and constant partition columns.
#include "recflow/dataset/partition_discovery.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>
#include <optional>
#include <string_view>
#include <system_error>

#include "recflow/columnar/builder.h"
#include "recflow/dataset/partition_path.h"

namespace recflow::dataset {

namespace {

namespace fs = std::filesystem;

/// How one partition value reads, from the narrowest type to the widest.
enum class ValueKind { kNull, kInt64, kFloat64, kUtf8 };

/// The partition levels of one file and the non-partition directories above them.
struct FileLayout {
  std::string prefix;  ///< directories between the base and the partition run, joined by '/'
  std::vector<PartitionKeyValue> levels;
};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

/// Skips ASCII digits from `i`; returns how many there were.
size_t SkipDigits(std::string_view s, size_t* i) {
  const size_t start = *i;
  while (*i < s.size() && IsDigit(s[*i])) ++*i;
  return *i - start;
}

/// `[+-]?[0-9]+` fitting in int64 (Java's Long.parseLong).
std::optional<int64_t> ParseInt64(std::string_view s) {
  size_t i = 0;
  if (!s.empty() && s[0] == '+') {
    s.remove_prefix(1);
  } else if (!s.empty() && s[0] == '-') {
    i = 1;
  }
  if (SkipDigits(s, &i) == 0 || i != s.size()) return std::nullopt;
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

/// Java's decimal Double.parseDouble grammar without whitespace and d/f suffixes:
/// `[+-]?(NaN|Infinity|digits[.digits?][exp]|.digits[exp])`, exp = `[eE][+-]?digits`.
/// std::nullopt when it does not match or is outside float64's range.
std::optional<double> ParseFloat64(std::string_view s) {
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

ValueKind Classify(const std::optional<std::string>& value) {
  if (!value.has_value()) return ValueKind::kNull;
  if (ParseInt64(*value).has_value()) return ValueKind::kInt64;
  // An integer too large for int64 is Spark's decimal; keep its digits as text.
  std::string_view digits = *value;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) digits.remove_prefix(1);
  size_t i = 0;
  if (SkipDigits(digits, &i) > 0 && i == digits.size()) return ValueKind::kUtf8;
  if (ParseFloat64(*value).has_value()) return ValueKind::kFloat64;
  return ValueKind::kUtf8;
}

DataTypePtr TypeOf(ValueKind widest) {
  switch (widest) {
    case ValueKind::kInt64:
      return int64();
    case ValueKind::kFloat64:
      return float64();
    case ValueKind::kNull:  // an all-null column is utf8, as in Spark
    case ValueKind::kUtf8:
      break;
  }
  return utf8();
}

PartitionValue Convert(const std::optional<std::string>& value, ValueKind column_kind) {
  if (!value.has_value()) return std::monostate();
  switch (column_kind) {
    case ValueKind::kInt64:
      return *ParseInt64(*value);
    case ValueKind::kFloat64:
      return *ParseFloat64(*value);
    case ValueKind::kNull:
    case ValueKind::kUtf8:
      break;
  }
  return *value;
}

/// The directory components between `base` and `file`; InvalidArgument when not under base.
Result<std::vector<std::string>> DirectoriesBetween(const fs::path& base, const std::string& file) {
  const fs::path rel = fs::path(file).lexically_normal().parent_path().lexically_relative(base);
  if (rel.empty() || *rel.begin() == "..") {
    return Status::InvalidArgument(file + " is not under the dataset directory " + base.string());
  }
  std::vector<std::string> dirs;
  for (const fs::path& part : rel) {
    if (part != "." && !part.empty()) dirs.push_back(part.string());
  }
  return dirs;
}

/// Spark's walk from the file upwards: skip plain directories, take the run of `key=value` ones.
Result<FileLayout> LayoutOf(const fs::path& base, const std::string& file) {
  ASSIGN_OR_RETURN(std::vector<std::string> split_dirs, DirectoriesBetween(base, file));
  Result<std::vector<std::string>> joined = JoinContinuedDirectories(std::move(split_dirs));
  if (!joined.ok()) return joined.status().WithFile(file);
  const std::vector<std::string>& dirs = *joined;
  size_t end = dirs.size();
  while (end > 0 && dirs[end - 1].find('=') == std::string::npos) --end;
  size_t begin = end;
  while (begin > 0 && dirs[begin - 1].find('=') != std::string::npos) --begin;
  FileLayout layout;
  if (begin == end) return layout;  // unpartitioned
  for (size_t i = 0; i < begin; ++i) layout.prefix += (i > 0 ? "/" : "") + dirs[i];
  for (size_t i = begin; i < end; ++i) {
    Result<std::optional<PartitionKeyValue>> level = ParsePartitionDirectoryName(dirs[i]);
    if (!level.ok()) return level.status().WithFile(file);
    for (const PartitionKeyValue& seen : layout.levels) {
      if (seen.key == (*level)->key) {
        return Status::DataError("partition column '" + seen.key + "' appears twice in the path").WithFile(file);
      }
    }
    layout.levels.push_back(std::move(**level));
  }
  return layout;
}

std::string Describe(const FileLayout& layout) {
  std::string keys;
  for (const PartitionKeyValue& level : layout.levels) keys += (keys.empty() ? "" : ", ") + level.key;
  std::string text = layout.levels.empty() ? "no partition columns" : "partition columns [" + keys + "]";
  if (!layout.prefix.empty()) text += " under '" + layout.prefix + "'";
  return text;
}

bool SameShape(const FileLayout& a, const FileLayout& b) {
  if (a.prefix != b.prefix || a.levels.size() != b.levels.size()) return false;
  for (size_t i = 0; i < a.levels.size(); ++i) {
    if (a.levels[i].key != b.levels[i].key) return false;
  }
  return true;
}

/// Appends `num_rows` copies of `value` (checked against `field`) to a fresh builder.
Result<std::shared_ptr<ArrayData>> ConstantColumn(const Field& field, const PartitionValue& value, int64_t num_rows) {
  const TypeId id = field.type()->id();
  const bool matches = std::holds_alternative<std::monostate>(value) ||
                       (id == TypeId::kInt64 && std::holds_alternative<int64_t>(value)) ||
                       (id == TypeId::kFloat64 && std::holds_alternative<double>(value)) ||
                       (id == TypeId::kUtf8 && std::holds_alternative<std::string>(value));
  if (!matches || (id != TypeId::kInt64 && id != TypeId::kFloat64 && id != TypeId::kUtf8)) {
    return Status::TypeError("partition value does not match the column type " + field.type()->ToString())
        .WithField(field.name());
  }
  if (std::holds_alternative<std::monostate>(value) && !field.nullable()) {
    return Status::TypeError("null partition value in a non-nullable column").WithField(field.name());
  }
  ASSIGN_OR_RETURN(std::unique_ptr<ArrayBuilder> builder, MakeBuilder(field.type()));
  if (std::holds_alternative<std::monostate>(value)) {
    RETURN_NOT_OK(builder->AppendNulls(num_rows));
  } else if (const auto* i = std::get_if<int64_t>(&value)) {
    auto* ints = static_cast<Int64Builder*>(builder.get());
    RETURN_NOT_OK(ints->Reserve(num_rows));
    for (int64_t row = 0; row < num_rows; ++row) ints->UnsafeAppend(*i);
  } else if (const auto* d = std::get_if<double>(&value)) {
    auto* doubles = static_cast<Float64Builder*>(builder.get());
    RETURN_NOT_OK(doubles->Reserve(num_rows));
    for (int64_t row = 0; row < num_rows; ++row) doubles->UnsafeAppend(*d);
  } else {
    const std::string& text = std::get<std::string>(value);
    const auto size = static_cast<int64_t>(text.size());
    if (size > 0 && num_rows > kMaxInt32Offset / size) {
      return Status::InvalidArgument(std::to_string(num_rows) + " rows of a " + std::to_string(size) +
                                     "-byte partition value exceed a utf8 column's capacity")
          .WithField(field.name());
    }
    auto* strings = static_cast<BinaryBuilder*>(builder.get());
    RETURN_NOT_OK(strings->Reserve(num_rows));
    RETURN_NOT_OK(strings->ReserveData(size * num_rows));
    for (int64_t row = 0; row < num_rows; ++row) RETURN_NOT_OK(strings->Append(text));
  }
  return builder->Finish();
}

}  // namespace

Result<DiscoveredPartitions> DiscoverPartitions(const std::string& base_dir, const std::vector<std::string>& files) {
  fs::path base = fs::path(base_dir).lexically_normal();
  if (base.filename().empty() && base != base.root_path()) base = base.parent_path();
  std::vector<FileLayout> layouts;
  layouts.reserve(files.size());
  const FileLayout* reference = nullptr;
  size_t reference_index = 0;
  for (const std::string& file : files) {
    ASSIGN_OR_RETURN(FileLayout layout, LayoutOf(base, file));
    layouts.push_back(std::move(layout));
  }
  for (size_t f = 0; f < layouts.size() && reference == nullptr; ++f) {
    if (!layouts[f].levels.empty()) {
      reference = &layouts[f];
      reference_index = f;
    }
  }
  DiscoveredPartitions result;
  result.values.resize(files.size());
  if (reference == nullptr) {
    result.schema = Schema::Make({});
    return result;
  }
  for (size_t f = 0; f < layouts.size(); ++f) {
    if (!SameShape(layouts[f], *reference)) {
      return Status::DataError("conflicting partition directory layouts: " + files[f] + " has " + Describe(layouts[f]) +
                               " but " + files[reference_index] + " has " + Describe(*reference));
    }
  }
  std::vector<FieldPtr> fields;
  for (size_t c = 0; c < reference->levels.size(); ++c) {
    ValueKind widest = ValueKind::kNull;
    bool nullable = false;
    for (const FileLayout& layout : layouts) {
      const ValueKind kind = Classify(layout.levels[c].value);
      nullable = nullable || kind == ValueKind::kNull;
      widest = std::max(widest, kind);
    }
    fields.push_back(Field::Make(reference->levels[c].key, TypeOf(widest), nullable));
    for (size_t f = 0; f < layouts.size(); ++f) {
      result.values[f].push_back(Convert(layouts[f].levels[c].value, widest));
    }
  }
  result.schema = Schema::Make(std::move(fields));
  return result;
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
    ASSIGN_OR_RETURN(std::shared_ptr<ArrayData> column,
                     ConstantColumn(*partition_schema.field(c), values[static_cast<size_t>(c)], num_rows));
    columns.push_back(std::move(column));
  }
  return columns;
}

}  // namespace recflow::dataset
