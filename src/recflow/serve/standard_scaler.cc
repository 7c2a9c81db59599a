// StandardScaler: ops::Moments over one pass, then ops::StandardScaleColumn on every batch.
#include "recflow/serve/standard_scaler.h"

#include "recflow/ops/columns/scale.h"

namespace recflow::serve {

Result<std::unique_ptr<StandardScaler>> StandardScaler::Fit(const Schema& schema,
                                                            const std::vector<std::string>& columns,
                                                            const BatchProducer& next) {
  auto scaler = std::unique_ptr<StandardScaler>(new StandardScaler());
  std::vector<FieldPtr> fields = schema.fields();
  for (const std::string& name : columns) {
    const int index = schema.GetFieldIndex(name);
    if (index < 0) return Status::InvalidArgument("standard-scale: no column '" + name + "' in " + schema.ToString());
    const DataType& type = *schema.field(index)->type();
    if (!type.is_integer() && !type.is_floating()) {
      return Status::InvalidArgument("standard-scale: column '" + name + "' is " + type.ToString() + ", not a number");
    }
    scaler->indices_.push_back(index);
    fields[static_cast<size_t>(index)] = schema.field(index)->WithType(float64());
  }
  scaler->moments_.resize(columns.size());
  scaler->output_schema_ = Schema::Make(std::move(fields), schema.metadata());
  while (true) {
    ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, next());
    if (batch == nullptr) break;
    for (size_t k = 0; k < scaler->indices_.size(); ++k) {
      RETURN_NOT_OK(scaler->moments_[k].Add(*batch->column_data(scaler->indices_[k])));
    }
  }
  return scaler;
}

Result<std::shared_ptr<RecordBatch>> StandardScaler::Apply(const RecordBatch& batch) const {
  std::vector<std::shared_ptr<ArrayData>> columns = batch.columns();
  for (size_t k = 0; k < indices_.size(); ++k) {
    std::shared_ptr<ArrayData>& column = columns[static_cast<size_t>(indices_[k])];
    ASSIGN_OR_RETURN(column, ops::StandardScaleColumn(*column, moments_[k]));
  }
  return RecordBatch::Make(output_schema_, batch.num_rows(), std::move(columns));
}

}  // namespace recflow::serve
