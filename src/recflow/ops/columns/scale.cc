// StandardScale and MinMaxScale: one float64 output column per scaled column, an affine map of x.
#include "recflow/ops/columns/scale.h"

#include <cmath>

#include "recflow/ops/columns/column_util_internal.h"

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

template <typename F>
Result<std::shared_ptr<RecordBatch>> ScaleColumns(const RecordBatch& batch, const std::vector<std::string>& columns,
                                                  const std::vector<Moments>& moments, const char* op, F&& scale) {
  if (columns.size() != moments.size()) {
    return Status::InvalidArgument(std::string(op) + ": " + std::to_string(columns.size()) + " columns but " +
                                   std::to_string(moments.size()) + " fitted moments");
  }
  std::vector<FieldPtr> fields = batch.schema()->fields();
  std::vector<std::shared_ptr<ArrayData>> data = batch.columns();
  for (size_t k = 0; k < columns.size(); ++k) {
    ASSIGN_OR_RETURN(const int index, internal::FindColumn(*batch.schema(), columns[k], op));
    const auto i = static_cast<size_t>(index);
    auto scaled = scale(*data[i], moments[k]);
    if (!scaled.ok()) return scaled.status().WithField(columns[k]);
    data[i] = std::move(scaled).ValueUnsafe();
    fields[i] = fields[i]->WithType(float64());
  }
  return RecordBatch::Make(Schema::Make(std::move(fields), batch.schema()->metadata()), batch.num_rows(), std::move(data));
}

}  // namespace

Result<std::shared_ptr<ArrayData>> StandardScaleColumn(const ArrayData& column, const Moments& moments) {
  const double stddev = moments.stddev();
  const double mean = moments.mean;
  const double factor = stddev > 0 ? 1.0 / stddev : 1.0;  // as serve::StandardScaler, bit for bit
  return MapToFloat64(column, "standard_scale", [&](double x) { return (x - mean) * factor; });
}

Result<std::shared_ptr<ArrayData>> MinMaxScaleColumn(const ArrayData& column, const Moments& moments) {
  const double min = moments.min;
  const double range = moments.max - moments.min;
  if (!(range > 0) || !std::isfinite(range)) return MapToFloat64(column, "min_max_scale", [](double) { return 0.0; });
  return MapToFloat64(column, "min_max_scale", [&](double x) { return (x - min) / range; });
}

Result<std::shared_ptr<RecordBatch>> StandardScale(const RecordBatch& batch, const std::vector<std::string>& columns,
                                                   const std::vector<Moments>& moments) {
  return ScaleColumns(batch, columns, moments, "standard_scale", StandardScaleColumn);
}

Result<std::shared_ptr<RecordBatch>> MinMaxScale(const RecordBatch& batch, const std::vector<std::string>& columns,
                                                 const std::vector<Moments>& moments) {
  return ScaleColumns(batch, columns, moments, "min_max_scale", MinMaxScaleColumn);
}

}  // namespace recflow::ops
