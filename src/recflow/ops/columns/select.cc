// Select, Drop and Rename over the schema and column vectors of a record batch.
#include "recflow/ops/columns/select.h"

#include <set>

#include "recflow/ops/columns/column_util_internal.h"

namespace recflow::ops {

Result<std::shared_ptr<RecordBatch>> Select(const RecordBatch& batch, const std::vector<std::string>& names) {
  std::vector<FieldPtr> fields;
  std::vector<std::shared_ptr<ArrayData>> columns;
  std::set<std::string, std::less<>> seen;
  for (const std::string& name : names) {
    ASSIGN_OR_RETURN(const int index, internal::FindColumn(*batch.schema(), name, "select"));
    if (!seen.insert(name).second) return Status::InvalidArgument("select: column '" + name + "' is named twice");
    fields.push_back(batch.schema()->field(index));
    columns.push_back(batch.column_data(index));
  }
  return RecordBatch::Make(Schema::Make(std::move(fields), batch.schema()->metadata()), batch.num_rows(),
                           std::move(columns));
}

Result<std::shared_ptr<RecordBatch>> Drop(const RecordBatch& batch, const std::vector<std::string>& names) {
  std::vector<bool> dropped(static_cast<size_t>(batch.num_columns()), false);
  for (const std::string& name : names) {
    ASSIGN_OR_RETURN(const int index, internal::FindColumn(*batch.schema(), name, "drop"));
    dropped[static_cast<size_t>(index)] = true;
  }
  std::vector<FieldPtr> fields;
  std::vector<std::shared_ptr<ArrayData>> columns;
  for (int i = 0; i < batch.num_columns(); ++i) {
    if (dropped[static_cast<size_t>(i)]) continue;
    fields.push_back(batch.schema()->field(i));
    columns.push_back(batch.column_data(i));
  }
  return RecordBatch::Make(Schema::Make(std::move(fields), batch.schema()->metadata()), batch.num_rows(),
                           std::move(columns));
}

Result<std::shared_ptr<RecordBatch>> Rename(const RecordBatch& batch,
                                            const std::vector<std::pair<std::string, std::string>>& renames) {
  std::vector<FieldPtr> fields = batch.schema()->fields();
  std::vector<bool> renamed(fields.size(), false);
  for (const auto& [from, to] : renames) {
    ASSIGN_OR_RETURN(const int index, internal::FindColumn(*batch.schema(), from, "rename"));
    if (renamed[static_cast<size_t>(index)]) return Status::InvalidArgument("rename: column '" + from + "' is renamed twice");
    if (to.empty()) return Status::InvalidArgument("rename: column '" + from + "' gets an empty name");
    renamed[static_cast<size_t>(index)] = true;
    fields[static_cast<size_t>(index)] = fields[static_cast<size_t>(index)]->WithName(to);
  }
  std::set<std::string, std::less<>> names;
  for (const FieldPtr& field : fields) {
    if (!names.insert(field->name()).second) {
      return Status::InvalidArgument("rename: two columns would be named '" + field->name() + "'");
    }
  }
  return RecordBatch::Make(Schema::Make(std::move(fields), batch.schema()->metadata()), batch.num_rows(),
                           batch.columns());
}

}  // namespace recflow::ops
