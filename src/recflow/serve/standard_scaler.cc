// StandardScaler: a numeric reader per type, Welford accumulation, float64 output columns.
#include "recflow/serve/standard_scaler.h"

#include <cmath>
#include <cstring>

#include "recflow/columnar/bit_util.h"

namespace recflow::serve {

namespace {

/// Calls `f(i, value)` for every non-null element of a numeric column, as double.
template <typename F>
void ForEachNumber(const ArrayData& data, F&& f) {
  const uint8_t* validity = data.null_count > 0 ? data.validity() : nullptr;
  const auto visit = [&](auto tag) {
    using T = decltype(tag);
    const T* values = data.GetValues<T>(1);
    for (int64_t i = 0; i < data.length; ++i) {
      if (validity != nullptr && !bit_util::GetBit(validity, data.offset + i)) continue;
      f(i, static_cast<double>(values[i]));
    }
  };
  switch (data.type->id()) {
    case TypeId::kInt8: visit(int8_t{}); break;
    case TypeId::kInt16: visit(int16_t{}); break;
    case TypeId::kInt32: visit(int32_t{}); break;
    case TypeId::kInt64: visit(int64_t{}); break;
    case TypeId::kUInt8: visit(uint8_t{}); break;
    case TypeId::kUInt16: visit(uint16_t{}); break;
    case TypeId::kUInt32: visit(uint32_t{}); break;
    case TypeId::kUInt64: visit(uint64_t{}); break;
    case TypeId::kFloat32: visit(float{}); break;
    case TypeId::kFloat64: visit(double{}); break;
    default: break;
  }
}

bool IsNumeric(const DataType& type) { return type.is_integer() || type.is_floating(); }

}  // namespace

Result<std::unique_ptr<StandardScaler>> StandardScaler::Fit(const Schema& schema,
                                                            const std::vector<std::string>& columns,
                                                            const BatchProducer& next) {
  auto scaler = std::unique_ptr<StandardScaler>(new StandardScaler());
  std::vector<FieldPtr> fields = schema.fields();
  for (const std::string& name : columns) {
    const int index = schema.GetFieldIndex(name);
    if (index < 0) return Status::InvalidArgument("standard-scale: no column '" + name + "' in " + schema.ToString());
    if (!IsNumeric(*schema.field(index)->type())) {
      return Status::InvalidArgument("standard-scale: column '" + name + "' is " + schema.field(index)->type()->ToString() +
                                     ", not a number");
    }
    scaler->indices_.push_back(index);
    scaler->moments_.push_back({name});
    fields[static_cast<size_t>(index)] = Field::Make(name, float64(), schema.field(index)->nullable());
  }
  scaler->output_schema_ = Schema::Make(std::move(fields), schema.metadata());
  std::vector<double> m2(columns.size(), 0.0);
  while (true) {
    ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, next());
    if (batch == nullptr) break;
    for (size_t k = 0; k < scaler->indices_.size(); ++k) {
      ColumnMoments& m = scaler->moments_[k];
      ForEachNumber(*batch->column_data(scaler->indices_[k]), [&](int64_t, double x) {
        ++m.count;
        const double delta = x - m.mean;
        m.mean += delta / static_cast<double>(m.count);
        m2[k] += delta * (x - m.mean);
      });
    }
  }
  for (size_t k = 0; k < m2.size(); ++k) {
    ColumnMoments& m = scaler->moments_[k];
    m.stddev = m.count > 0 ? std::sqrt(m2[k] / static_cast<double>(m.count)) : 0.0;
  }
  return scaler;
}

Result<std::shared_ptr<RecordBatch>> StandardScaler::Apply(const RecordBatch& batch) const {
  std::vector<std::shared_ptr<ArrayData>> columns;
  for (int c = 0; c < batch.num_columns(); ++c) columns.push_back(batch.column_data(c));
  for (size_t k = 0; k < indices_.size(); ++k) {
    const ArrayData& in = *columns[static_cast<size_t>(indices_[k])];
    const ColumnMoments& m = moments_[k];
    ASSIGN_OR_RETURN(auto values, Buffer::Allocate(in.length * 8));
    auto* out = reinterpret_cast<double*>(const_cast<uint8_t*>(values->data()));
    const double scale = m.stddev > 0 ? 1.0 / m.stddev : 1.0;
    ForEachNumber(in, [&](int64_t i, double x) { out[i] = (x - m.mean) * scale; });
    std::shared_ptr<Buffer> validity;
    if (in.null_count > 0) {
      ASSIGN_OR_RETURN(validity, Buffer::Allocate(bit_util::BytesForBits(in.length)));
      auto* bits = const_cast<uint8_t*>(validity->data());
      for (int64_t i = 0; i < in.length; ++i) {
        if (bit_util::GetBit(in.validity(), in.offset + i)) bits[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
      }
    }
    columns[static_cast<size_t>(indices_[k])] = ArrayData::Make(float64(), in.length, {validity, values}, in.null_count);
  }
  return RecordBatch::Make(output_schema_, batch.num_rows(), std::move(columns));
}

}  // namespace recflow::serve
