// GroupRowsByPartition: per-row partition values → escaped Hive directory → row groups.
#include "recflow/dataset/partition_rows.h"

#include <charconv>
#include <string_view>
#include <unordered_map>

#include "recflow/columnar/array.h"
#include "recflow/dataset/partition_path.h"

namespace recflow::dataset {

namespace {

std::string DoubleText(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof(buf), v);
  return std::string(buf, r.ptr);
}

template <typename T>
std::string NumberText(const std::shared_ptr<ArrayData>& column, int64_t row) {
  const T v = NumericArray<T>(column).Value(row);
  if constexpr (std::is_floating_point_v<T>) {
    return DoubleText(static_cast<double>(v));
  } else {
    return std::to_string(v);
  }
}

bool IsPartitionableType(TypeId id) {
  switch (id) {
    case TypeId::kBinary:
    case TypeId::kList:
    case TypeId::kStruct:
    case TypeId::kNull:
      return false;
    default:
      return true;
  }
}

}  // namespace

Result<std::optional<std::string>> PartitionValueText(const std::shared_ptr<ArrayData>& column, int64_t row) {
  if (Array(column).IsNull(row)) return std::optional<std::string>();
  switch (column->type->id()) {
    case TypeId::kBool:
      return std::optional<std::string>(BooleanArray(column).Value(row) ? "true" : "false");
    case TypeId::kInt8:
      return std::optional<std::string>(NumberText<int8_t>(column, row));
    case TypeId::kInt16:
      return std::optional<std::string>(NumberText<int16_t>(column, row));
    case TypeId::kInt32:
      return std::optional<std::string>(NumberText<int32_t>(column, row));
    case TypeId::kInt64:
      return std::optional<std::string>(NumberText<int64_t>(column, row));
    case TypeId::kUInt8:
      return std::optional<std::string>(NumberText<uint8_t>(column, row));
    case TypeId::kUInt16:
      return std::optional<std::string>(NumberText<uint16_t>(column, row));
    case TypeId::kUInt32:
      return std::optional<std::string>(NumberText<uint32_t>(column, row));
    case TypeId::kUInt64:
      return std::optional<std::string>(NumberText<uint64_t>(column, row));
    case TypeId::kFloat32:
      return std::optional<std::string>(NumberText<float>(column, row));
    case TypeId::kFloat64:
      return std::optional<std::string>(NumberText<double>(column, row));
    case TypeId::kUtf8:
      return std::optional<std::string>(std::string(BinaryArray(column).GetView(row)));
    default:
      return Status::TypeError("a " + column->type->ToString() + " value cannot name a partition directory");
  }
}

Result<std::vector<int>> ResolvePartitionColumns(const Schema& schema, const std::vector<std::string>& names) {
  std::vector<int> indices;
  for (size_t i = 0; i < names.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (names[j] == names[i]) return Status::InvalidArgument("partition column '" + names[i] + "' is given twice");
    }
    const int index = schema.GetFieldIndex(names[i]);
    if (index < 0) {
      return Status::InvalidArgument("partition column '" + names[i] + "' is not a column of the input (" +
                                     schema.ToString() + ")");
    }
    const Field& field = *schema.field(index);
    if (!IsPartitionableType(field.type()->id())) {
      return Status::InvalidArgument("partition column '" + names[i] + "' has type " + field.type()->ToString() +
                                     ", which cannot name a directory");
    }
    indices.push_back(index);
  }
  if (!names.empty() && indices.size() == static_cast<size_t>(schema.num_fields())) {
    return Status::InvalidArgument("every column is a partition column: no data would be left in the files");
  }
  return indices;
}

Result<std::vector<PartitionRows>> GroupRowsByPartition(const RecordBatch& batch, const std::vector<int>& columns) {
  std::vector<PartitionRows> groups;
  if (batch.num_rows() == 0) return groups;
  if (columns.empty()) {
    groups.push_back({std::string(), {}});
    groups.back().rows.resize(static_cast<size_t>(batch.num_rows()));
    for (int64_t r = 0; r < batch.num_rows(); ++r) groups.back().rows[static_cast<size_t>(r)] = r;
    return groups;
  }
  std::unordered_map<std::string, size_t> index_of;
  std::vector<PartitionKeyValue> levels(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) levels[c].key = batch.schema()->field(columns[c])->name();
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    for (size_t c = 0; c < columns.size(); ++c) {
      auto text = PartitionValueText(batch.column_data(columns[c]), r);
      if (!text.ok()) return text.status().WithField(levels[c].key).WithRecord(r);
      levels[c].value = std::move(text).ValueUnsafe();
    }
    auto dir = PartitionPath(levels);
    if (!dir.ok()) return dir.status().WithRecord(r);
    auto [it, fresh] = index_of.try_emplace(*dir, groups.size());
    if (fresh) groups.push_back({std::move(dir).ValueUnsafe(), {}});
    groups[it->second].rows.push_back(r);
  }
  return groups;
}

}  // namespace recflow::dataset
