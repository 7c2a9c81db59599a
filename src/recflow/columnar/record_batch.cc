// RecordBatch construction checks, slicing, validation and equality.
#include "recflow/columnar/record_batch.h"

#include <algorithm>

#include "recflow/columnar/equals.h"
#include "recflow/columnar/pretty_print.h"
#include "recflow/columnar/validate.h"

namespace recflow {

RecordBatch::RecordBatch(SchemaPtr schema, int64_t num_rows, std::vector<std::shared_ptr<ArrayData>> columns)
    : schema_(std::move(schema)), num_rows_(num_rows), columns_(std::move(columns)) {}

Result<std::shared_ptr<RecordBatch>> RecordBatch::Make(SchemaPtr schema, int64_t num_rows,
                                                       std::vector<std::shared_ptr<ArrayData>> columns) {
  if (schema == nullptr) return Status::InvalidArgument("RecordBatch without a schema");
  if (num_rows < 0) return Status::InvalidArgument("negative row count " + std::to_string(num_rows));
  if (static_cast<int>(columns.size()) != schema->num_fields()) {
    return Status::InvalidArgument("RecordBatch has " + std::to_string(columns.size()) + " columns, the schema " +
                                   std::to_string(schema->num_fields()) + " fields");
  }
  for (int i = 0; i < schema->num_fields(); ++i) {
    const auto& column = columns[static_cast<size_t>(i)];
    const auto& field = schema->field(i);
    if (column == nullptr) return Status::InvalidArgument("column '" + field->name() + "' is missing");
    if (column->type == nullptr || !column->type->Equals(*field->type())) {
      return Status::TypeError("column '" + field->name() + "' has type " +
                               (column->type ? column->type->ToString() : std::string("none")) +
                               ", the schema says " + field->type()->ToString());
    }
    if (column->length != num_rows) {
      return Status::InvalidArgument("column '" + field->name() + "' has " + std::to_string(column->length) +
                                     " rows, the batch " + std::to_string(num_rows));
    }
  }
  return std::make_shared<RecordBatch>(std::move(schema), num_rows, std::move(columns));
}

std::shared_ptr<RecordBatch> RecordBatch::Slice(int64_t offset, int64_t length) const {
  offset = std::clamp<int64_t>(offset, 0, num_rows_);
  length = std::clamp<int64_t>(length, 0, num_rows_ - offset);
  std::vector<std::shared_ptr<ArrayData>> sliced;
  sliced.reserve(columns_.size());
  for (const auto& column : columns_) sliced.push_back(column->Slice(offset, length));
  return std::make_shared<RecordBatch>(schema_, length, std::move(sliced));
}

Status RecordBatch::ValidateFull() const {
  for (int i = 0; i < num_columns(); ++i) {
    const auto& field = schema_->field(i);
    const ArrayData& column = *columns_[static_cast<size_t>(i)];
    Status st = recflow::ValidateFull(column);
    if (!st.ok()) return st.WithField(field->name());
    if (!field->nullable() && column.null_count > 0) {
      return Status::DataError(std::to_string(column.null_count) + " nulls in a non-nullable column")
          .WithField(field->name());
    }
  }
  return Status::OK();
}

bool RecordBatch::Equals(const RecordBatch& other) const {
  if (num_rows_ != other.num_rows_ || !schema_->Equals(*other.schema_)) return false;
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (!ArrayEquals(*columns_[i], *other.columns_[i])) return false;
  }
  return true;
}

std::string RecordBatch::ToString() const {
  std::string out;
  for (int i = 0; i < num_columns(); ++i) {
    out += schema_->field(i)->ToString() + " = " + ArrayToString(*columns_[static_cast<size_t>(i)]) + "\n";
  }
  return out;
}

}  // namespace recflow
