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
/// population stddev of `moments`; x - mean when the stddev is 0. Nulls stay null. Matches
/// serve::StandardScaler value for value. TypeError for a non-numeric column.
Result<std::shared_ptr<ArrayData>> StandardScaleColumn(const ArrayData& column, const Moments& moments);

/// (x - min) / (max - min) of every non-null value of numeric `column` as float64; 0 when
/// max <= min (one distinct value, or nothing fitted). Nulls stay null. TypeError for a
/// non-numeric column.
Result<std::shared_ptr<ArrayData>> MinMaxScaleColumn(const ArrayData& column, const Moments& moments);

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
