// StandardScaler: per-column mean and standard deviation fitted over one pass, then (x - mean) / std.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/ops/columns/moments.h"

namespace recflow::serve {

/// Produces the next batch of a pass, or nullptr at its end.
using BatchProducer = std::function<Result<std::shared_ptr<RecordBatch>>()>;

/// Standardizes numeric columns: fitted once over a pass (ops::Moments, nulls skipped), then
/// each value becomes (x - mean) / stddev as float64 (x - mean when stddev is 0), as the
/// pipeline's standard_scale op does (ops::StandardScaleColumn); nulls stay null; other
/// columns pass through.
class StandardScaler {
 public:
  /// Fits `columns` (numeric columns of `schema`: integers, float32, float64) over every batch
  /// `next` produces. InvalidArgument for a missing or non-numeric column.
  static Result<std::unique_ptr<StandardScaler>> Fit(const Schema& schema, const std::vector<std::string>& columns,
                                                     const BatchProducer& next);

  /// The schema of scaled batches (the scaled columns become float64).
  const SchemaPtr& output_schema() const { return output_schema_; }
  /// The statistics (population standard deviation, as scikit-learn's StandardScaler), in the
  /// order the columns were given.
  const std::vector<ops::Moments>& moments() const { return moments_; }
  /// `batch` (of the fitted schema) with its scaled columns replaced.
  Result<std::shared_ptr<RecordBatch>> Apply(const RecordBatch& batch) const;

 private:
  std::vector<int> indices_;
  std::vector<ops::Moments> moments_;
  SchemaPtr output_schema_;
};

}  // namespace recflow::serve
