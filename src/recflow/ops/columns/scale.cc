// StandardScale and MinMaxScale: one float64 output column per scaled column, an affine map of x.
#include "recflow/ops/columns/scale.h"

#include <cmath>

#include "recflow/ops/columns/column_util_internal.h"
#include "recflow/ops/columns/planned_schema.h"

namespace recflow::ops {

namespace {

/// f(x) for every element of numeric `column`, as float64 with its nulls.
template <typename F>
Result<std::shared_ptr<ArrayData>> MapToFloat64(const ArrayData& column, const char* op, F&& f) {
  ASSIGN_OR_RETURN(auto values, Buffer::Allocate(column.length * static_cast<int64_t>(sizeof(double))));
  auto* out = reinterpret_cast<double*>(internal::MutableBytes(values));
  const bool numeric = internal::VisitNumericType(column.type->id(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = column.GetValues<T>(1);
    for (int64_t i = 0; i < column.length; ++i) {
      if (internal::IsValidAt(column, i)) out[i] = f(static_cast<double>(in[i]));
    }
  });
  if (!numeric) return Status::TypeError(std::string(op) + ": column is " + column.type->ToString() + ", not a number");
  ASSIGN_OR_RETURN(auto validity, internal::CopyValidity(column));
  return ArrayData::Make(float64(), column.length, {std::move(validity), std::move(values)}, column.null_count);
}

// The op's name in errors.
const char* ScaleOpName(bool min_max) { return min_max ? "min_max_scale" : "standard_scale"; }

}  // namespace

Result<std::shared_ptr<ArrayData>> StandardScaleColumn(const ArrayData& column, const Moments& moments) {
  const double stddev = moments.stddev();
  const double mean = moments.mean;
  const double factor = stddev > 0 ? 1.0 / stddev : 1.0;  // serve --transform standard-scale applies this too
  return MapToFloat64(column, "standard_scale", [&](double x) { return (x - mean) * factor; });
}

Result<std::shared_ptr<ArrayData>> MinMaxScaleColumn(const ArrayData& column, const Moments& moments) {
  const double min = moments.min;
  const double range = moments.max - moments.min;
  if (!(range > 0) || !std::isfinite(range)) return MapToFloat64(column, "min_max_scale", [](double) { return 0.0; });
  return MapToFloat64(column, "min_max_scale", [&](double x) { return (x - min) / range; });
}

ColumnScaler::ColumnScaler(SchemaPtr input, std::vector<std::string> names, std::vector<int> columns, bool min_max)
    : input_(std::move(input)), names_(std::move(names)), columns_(std::move(columns)), min_max_(min_max) {
  std::vector<FieldPtr> fields = input_->fields();
  for (const int index : columns_) {
    fields[static_cast<size_t>(index)] = fields[static_cast<size_t>(index)]->WithType(float64());
  }
  output_ = Schema::Make(std::move(fields), input_->metadata());
}

Result<ColumnScaler> ColumnScaler::Make(SchemaPtr input, std::vector<std::string> columns, bool min_max) {
  std::vector<int> indices;
  for (const std::string& name : columns) {
    ASSIGN_OR_RETURN(const int index, internal::FindColumn(*input, name, ScaleOpName(min_max)));
    indices.push_back(index);
  }
  return ColumnScaler(std::move(input), std::move(columns), std::move(indices), min_max);
}

Result<std::shared_ptr<RecordBatch>> ColumnScaler::Apply(const RecordBatch& batch,
                                                         const std::vector<Moments>& moments) const {
  const char* op = ScaleOpName(min_max_);
  RETURN_NOT_OK(CheckPlannedSchema(*input_, *batch.schema(), op));
  if (columns_.size() != moments.size()) {
    return Status::InvalidArgument(std::string(op) + ": " + std::to_string(columns_.size()) + " columns but " +
                                   std::to_string(moments.size()) + " fitted moments");
  }
  std::vector<std::shared_ptr<ArrayData>> data = batch.columns();
  for (size_t k = 0; k < columns_.size(); ++k) {
    std::shared_ptr<ArrayData>& column = data[static_cast<size_t>(columns_[k])];
    auto scaled = min_max_ ? MinMaxScaleColumn(*column, moments[k]) : StandardScaleColumn(*column, moments[k]);
    if (!scaled.ok()) return scaled.status().WithField(names_[k]);
    column = std::move(scaled).ValueUnsafe();
  }
  return RecordBatch::Make(output_, batch.num_rows(), std::move(data));
}

Result<std::shared_ptr<RecordBatch>> StandardScale(const RecordBatch& batch, const std::vector<std::string>& columns,
                                                   const std::vector<Moments>& moments) {
  ASSIGN_OR_RETURN(ColumnScaler scaler, ColumnScaler::Make(batch.schema(), columns, false));
  return scaler.Apply(batch, moments);
}

Result<std::shared_ptr<RecordBatch>> MinMaxScale(const RecordBatch& batch, const std::vector<std::string>& columns,
                                                 const std::vector<Moments>& moments) {
  ASSIGN_OR_RETURN(ColumnScaler scaler, ColumnScaler::Make(batch.schema(), columns, true));
  return scaler.Apply(batch, moments);
}

}  // namespace recflow::ops
