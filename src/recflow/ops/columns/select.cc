// Select, Drop and Rename: column indices and output schema resolved once, then picked from each batch.
#include "recflow/ops/columns/select.h"

#include <set>

#include "recflow/ops/columns/column_util_internal.h"
#include "recflow/ops/columns/planned_schema.h"

namespace recflow::ops {

Projection::Projection(const char* op, SchemaPtr input, std::vector<FieldPtr> fields, std::vector<int> columns)
    : op_(op),
      input_(std::move(input)),
      output_(Schema::Make(std::move(fields), input_->metadata())),
      columns_(std::move(columns)) {}

Result<Projection> Projection::Select(SchemaPtr input, const std::vector<std::string>& names) {
  std::vector<FieldPtr> fields;
  std::vector<int> columns;
  std::set<std::string, std::less<>> seen;
  for (const std::string& name : names) {
    ASSIGN_OR_RETURN(const int index, internal::FindColumn(*input, name, "select"));
    if (!seen.insert(name).second) return Status::InvalidArgument("select: column '" + name + "' is named twice");
    fields.push_back(input->field(index));
    columns.push_back(index);
  }
  return Projection("select", std::move(input), std::move(fields), std::move(columns));
}

Result<Projection> Projection::Drop(SchemaPtr input, const std::vector<std::string>& names) {
  std::vector<bool> dropped(static_cast<size_t>(input->num_fields()), false);
  for (const std::string& name : names) {
    ASSIGN_OR_RETURN(const int index, internal::FindColumn(*input, name, "drop"));
    dropped[static_cast<size_t>(index)] = true;
  }
  std::vector<FieldPtr> fields;
  std::vector<int> columns;
  for (int i = 0; i < input->num_fields(); ++i) {
    if (dropped[static_cast<size_t>(i)]) continue;
    fields.push_back(input->field(i));
    columns.push_back(i);
  }
  return Projection("drop", std::move(input), std::move(fields), std::move(columns));
}

Result<Projection> Projection::Rename(SchemaPtr input,
                                      const std::vector<std::pair<std::string, std::string>>& renames) {
  std::vector<FieldPtr> fields = input->fields();
  std::vector<bool> renamed(fields.size(), false);
  for (const auto& [from, to] : renames) {
    ASSIGN_OR_RETURN(const int index, internal::FindColumn(*input, from, "rename"));
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
  std::vector<int> columns(fields.size());
  for (size_t i = 0; i < columns.size(); ++i) columns[i] = static_cast<int>(i);
  return Projection("rename", std::move(input), std::move(fields), std::move(columns));
}

Result<std::shared_ptr<RecordBatch>> Projection::Apply(const RecordBatch& batch) const {
  RETURN_NOT_OK(CheckPlannedSchema(*input_, *batch.schema(), op_));
  std::vector<std::shared_ptr<ArrayData>> columns;
  columns.reserve(columns_.size());
  for (const int index : columns_) columns.push_back(batch.column_data(index));
  return RecordBatch::Make(output_, batch.num_rows(), std::move(columns));
}

Result<std::shared_ptr<RecordBatch>> Select(const RecordBatch& batch, const std::vector<std::string>& names) {
  ASSIGN_OR_RETURN(Projection projection, Projection::Select(batch.schema(), names));
  return projection.Apply(batch);
}

Result<std::shared_ptr<RecordBatch>> Drop(const RecordBatch& batch, const std::vector<std::string>& names) {
  ASSIGN_OR_RETURN(Projection projection, Projection::Drop(batch.schema(), names));
  return projection.Apply(batch);
}

Result<std::shared_ptr<RecordBatch>> Rename(const RecordBatch& batch,
                                            const std::vector<std::pair<std::string, std::string>>& renames) {
  ASSIGN_OR_RETURN(Projection projection, Projection::Rename(batch.schema(), renames));
  return projection.Apply(batch);
}

}  // namespace recflow::ops
