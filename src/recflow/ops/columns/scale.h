// StandardScale and MinMaxScale: transform numeric columns with fitted Moments (analyze, then transform).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/ops/columns/moments.h"

namespace recflow::ops {

/// (x - mean) / stddev of every non-null value of numeric `column` as float64, with the
/// population stddev of `moments`; x - mean when the stddev is 0. Nulls stay null (the
/// standard_scale step and serve's --transform standard-scale). TypeError for a non-numeric column.
Result<std::shared_ptr<ArrayData>> StandardScaleColumn(const ArrayData& column, const Moments& moments);

/// (x - min) / (max - min) of every non-null value of numeric `column` as float64; 0 when
/// max <= min (one distinct value, or nothing fitted). Nulls stay null. TypeError for a
/// non-numeric column.
Result<std::shared_ptr<ArrayData>> MinMaxScaleColumn(const ArrayData& column, const Moments& moments);

/// StandardScaleColumn or MinMaxScaleColumn of some columns, resolved once against an input
/// schema and applied to any number of its batches.
class ColumnScaler {
 public:
  /// Scaling of `columns` of batches of `input`, min-max when `min_max` and standard
  /// otherwise. InvalidArgument for a missing column (listing the available ones).
  static Result<ColumnScaler> Make(SchemaPtr input, std::vector<std::string> columns, bool min_max);

  /// The schema the scaler was resolved against.
  const SchemaPtr& input_schema() const { return input_; }
  /// The schema of its results: each scaled field becomes float64, keeping its name,
  /// nullability and metadata.
  const SchemaPtr& output_schema() const { return output_; }
  /// `batch` with each scaled column scaled by the Moments at the same position of `moments`.
  /// InvalidArgument when the batch's schema is not the input schema or `moments` has not one
  /// Moments per column; TypeError (naming the column) for a non-numeric column.
  Result<std::shared_ptr<RecordBatch>> Apply(const RecordBatch& batch, const std::vector<Moments>& moments) const;

 private:
  ColumnScaler(SchemaPtr input, std::vector<std::string> names, std::vector<int> columns, bool min_max);

  SchemaPtr input_;
  SchemaPtr output_;
  std::vector<std::string> names_;  // the scaled columns' names, for errors
  std::vector<int> columns_;        // their indices
  bool min_max_;
};

/// `batch` with each of `columns` replaced by StandardScaleColumn with the Moments at the same
/// position of `moments` (the field becomes float64, keeping its name, nullability and
/// metadata). InvalidArgument for a missing column (listing the available ones) or when the
/// two vectors differ in length.
Result<std::shared_ptr<RecordBatch>> StandardScale(const RecordBatch& batch, const std::vector<std::string>& columns,
                                                   const std::vector<Moments>& moments);

/// Same with MinMaxScaleColumn.
Result<std::shared_ptr<RecordBatch>> MinMaxScale(const RecordBatch& batch, const std::vector<std::string>& columns,
                                                 const std::vector<Moments>& moments);

}  // namespace recflow::ops
