// DiscoverPartitions: layout checks, then the types a schema file records or Spark-style type inference.
#include "recflow/dataset/partition_discovery.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string_view>

#include "recflow/dataset/dataset_schema.h"
#include "recflow/dataset/name_list_internal.h"
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

ValueKind Classify(const std::optional<std::string>& value) {
  if (!value.has_value()) return ValueKind::kNull;
  if (ParseDecimalInt64(*value).has_value()) return ValueKind::kInt64;
  // An integer too large for int64 is Spark's decimal; keep its digits as text.
  if (IsDecimalInteger(*value)) return ValueKind::kUtf8;
  if (ParseJavaDouble(*value).has_value()) return ValueKind::kFloat64;
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
      return *ParseDecimalInt64(*value);
    case ValueKind::kFloat64:
      return *ParseJavaDouble(*value);
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

/// The partition values of every file typed as `recorded` says: the files' partition columns
/// must be the recorded ones, in order; each value is read as its column's type.
Result<DiscoveredPartitions> TypeAsRecorded(const SchemaPtr& recorded, const std::vector<std::string>& files,
                                            const std::vector<FileLayout>& layouts, const FileLayout* reference,
                                            size_t reference_index) {
  DiscoveredPartitions result;
  result.schema = recorded;
  if (files.empty()) return result;  // a dataset of zero rows: its partition columns as recorded
  std::vector<std::string> keys, names;
  if (reference != nullptr) {
    for (const PartitionKeyValue& level : reference->levels) keys.push_back(RecordedName(level.key));
  }
  for (const FieldPtr& field : recorded->fields()) names.push_back(field->name());
  if (keys != names) {
    return Status::DataError("the dataset's schema file records partition columns " + internal::NameList(names) + " but " +
                             (reference != nullptr ? Describe(*reference) : std::string("no partition directories")) +
                             " were found")
        .WithFile(files[reference_index]);
  }
  result.values.resize(files.size());
  for (size_t f = 0; f < files.size(); ++f) {
    for (int c = 0; c < recorded->num_fields(); ++c) {
      const Field& field = *recorded->field(c);
      const std::optional<std::string>& text = layouts[f].levels[static_cast<size_t>(c)].value;
      if (!text.has_value()) {
        if (!field.nullable()) {
          return Status::DataError("null partition value in a column the schema file records as not nullable")
              .WithFile(files[f])
              .WithField(field.name());
        }
        result.values[f].emplace_back();
        continue;
      }
      Result<PartitionValue> value = ParsePartitionValue(*text, *field.type());
      if (!value.ok()) return value.status().WithFile(files[f]).WithField(field.name());
      result.values[f].push_back(std::move(value).ValueUnsafe());
    }
  }
  return result;
}

}  // namespace

Result<DiscoveredPartitions> DiscoverPartitions(const std::string& base_dir, const std::vector<std::string>& files,
                                                const SchemaPtr& recorded) {
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
  for (size_t f = 0; reference != nullptr && f < layouts.size(); ++f) {
    if (!SameShape(layouts[f], *reference)) {
      return Status::DataError("conflicting partition directory layouts: " + files[f] + " has " + Describe(layouts[f]) +
                               " but " + files[reference_index] + " has " + Describe(*reference));
    }
  }
  if (recorded != nullptr) return TypeAsRecorded(recorded, files, layouts, reference, reference_index);
  DiscoveredPartitions result;
  result.values.resize(files.size());
  if (reference == nullptr) {
    result.schema = Schema::Make({});
    return result;
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

Result<DiscoveredPartitions> DiscoverDatasetPartitions(const std::string& dir, const std::vector<std::string>& files,
                                                      FileSystem& fs) {
  ASSIGN_OR_RETURN(std::optional<DatasetSchema> recorded, ReadDatasetSchema(fs, dir));
  SchemaPtr partition_types;
  if (recorded) {
    ASSIGN_OR_RETURN(partition_types, recorded->PartitionSchema(dir + "/" + std::string(kSchemaFileName)));
  }
  return DiscoverPartitions(dir, files, partition_types);
}

}  // namespace recflow::dataset
