// GroupRowsByPartition: per-row partition values → escaped Hive directory → row groups.
#include "recflow/dataset/partition_rows.h"

#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "recflow/columnar/array.h"
#include "recflow/columnar/element_access.h"
#include "recflow/dataset/partition_path.h"
#include "recflow/dataset/partition_values.h"

namespace recflow::dataset {

namespace {

// The directory text of one partition column's values; the typed views are made once per batch.
class ValueText {
 public:
  explicit ValueText(const std::shared_ptr<ArrayData>& column) : column_(column), array_(column) {
    if (column->type->id() == TypeId::kBool) bools_.emplace(column);
    if (column->type->id() == TypeId::kUtf8) strings_.emplace(column);
    if (column->type->id() == TypeId::kDictionary) values_ = std::make_unique<ValueText>(column->dictionary);
  }

  // The text of `row`, or std::nullopt for null.
  std::optional<std::string> operator()(int64_t row) const {
    if (array_.IsNull(row)) return std::nullopt;
    switch (column_->type->id()) {
      case TypeId::kDictionary:
        return (*values_)(DictionaryIndex(*column_, row));
      case TypeId::kBool:
        return std::string(bools_->Value(row) ? "true" : "false");
      case TypeId::kInt8:
        return std::to_string(column_->GetValues<int8_t>(1)[row]);
      case TypeId::kInt16:
        return std::to_string(column_->GetValues<int16_t>(1)[row]);
      case TypeId::kInt32:
        return std::to_string(column_->GetValues<int32_t>(1)[row]);
      case TypeId::kInt64:
        return std::to_string(column_->GetValues<int64_t>(1)[row]);
      case TypeId::kUInt8:
        return std::to_string(column_->GetValues<uint8_t>(1)[row]);
      case TypeId::kUInt16:
        return std::to_string(column_->GetValues<uint16_t>(1)[row]);
      case TypeId::kUInt32:
        return std::to_string(column_->GetValues<uint32_t>(1)[row]);
      case TypeId::kUInt64:
        return std::to_string(column_->GetValues<uint64_t>(1)[row]);
      case TypeId::kFloat32:
        return PartitionFloatText(column_->GetValues<float>(1)[row]);
      case TypeId::kFloat64:
        return PartitionFloatText(column_->GetValues<double>(1)[row]);
      default:  // kUtf8: ResolvePartitionColumns admits no other type
        return std::string(strings_->GetView(row));
    }
  }

 private:
  std::shared_ptr<ArrayData> column_;
  Array array_;
  std::optional<BooleanArray> bools_;
  std::optional<BinaryArray> strings_;
  std::unique_ptr<ValueText> values_;  // dictionary columns: the text of the dictionary's values
};

// The types ValueText renders: booleans, integers, floats, utf8, and dictionaries of them.
bool IsPartitionableType(const DataType& type) {
  switch (type.id()) {
    case TypeId::kBool: case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
    case TypeId::kFloat32: case TypeId::kFloat64: case TypeId::kUtf8:
      return true;
    case TypeId::kDictionary:
      return IsPartitionableType(*type.value_type());
    default:
      return false;
  }
}

}  // namespace

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
    if (!IsPartitionableType(*field.type())) {
      return Status::InvalidArgument("partition column '" + names[i] + "' has type " + field.type()->ToString() +
                                     ", which cannot name a directory");
    }
    RETURN_NOT_OK(PartitionLevelPath(names[i], "").status());  // a name that leaves room for values
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
  std::vector<ValueText> texts;
  for (size_t c = 0; c < columns.size(); ++c) {
    levels[c].key = batch.schema()->field(columns[c])->name();
    texts.emplace_back(batch.column_data(columns[c]));
  }
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    for (size_t c = 0; c < columns.size(); ++c) levels[c].value = texts[c](r);
    auto dir = PartitionPath(levels);
    if (!dir.ok()) return dir.status().WithRecord(r);
    auto [it, fresh] = index_of.try_emplace(*dir, groups.size());
    if (fresh) groups.push_back({std::move(dir).ValueUnsafe(), {}});
    groups[it->second].rows.push_back(r);
  }
  return groups;
}

}  // namespace recflow::dataset
