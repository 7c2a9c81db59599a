// Combiner: a mergeable aggregate (count, sum, mean, min, max or user code) for CombinePerKey and CombineGlobally.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "recflow/columnar/array_data.h"
#include "recflow/columnar/builder.h"
#include "recflow/core/result.h"

namespace recflow::pipeline {

/// The running state of one aggregate over one group. Partial accumulators are built in
/// parallel (one per batch and key) and merged in input order, so Merge must be associative.
class Accumulator {
 public:
  virtual ~Accumulator() = default;
  /// Adds rows `rows` of `column` (nulls are skipped unless the combiner counts them).
  virtual Status Add(const ArrayData& column, std::span<const int64_t> rows) = 0;
  /// Folds in `other`, made by the same combiner for the same input type.
  virtual Status Merge(const Accumulator& other) = 0;
  /// Appends the result to `out`, a builder of the combiner's output type.
  virtual Status Finish(ArrayBuilder* out) const = 0;

  /// Appends this accumulator's state to `out`, a builder of its combiner's StateType: one
  /// value that MergeState folds into an accumulator of the same combiner and input type, in
  /// this process or another one of the same build (a distributed combine's exchange, a
  /// checkpoint). Internal error when the combiner has no StateType.
  virtual Status AppendState(ArrayBuilder* out) const;
  /// Folds in the state at row `row` of `state`, an array of the combiner's StateType made by
  /// AppendState, exactly as Merge folds in the accumulator that appended it (the same checks:
  /// an integer sum's overflow). Internal error when the combiner has no StateType.
  virtual Status MergeState(const ArrayData& state, int64_t row);
};

/// Makes accumulators of one aggregate.
class Combiner {
 public:
  virtual ~Combiner() = default;
  /// The aggregate's name ("sum"), for plans and messages.
  virtual std::string name() const = 0;
  /// The result type for input of `input`; TypeError when the aggregate cannot take it.
  virtual Result<DataTypePtr> OutputType(const DataType& input) const = 0;
  /// A fresh, empty accumulator for input of `input` (OutputType succeeded for it).
  virtual std::unique_ptr<Accumulator> NewAccumulator(const DataType& input) const = 0;
  /// The Arrow type of its accumulators' state for input of `input` (OutputType succeeded for
  /// it): what Accumulator::AppendState appends and MergeState reads. nullptr (the default, as
  /// for user code) when the state has no columnar form: a distributed run then exchanges the
  /// combine's input rows instead of per-task states.
  virtual DataTypePtr StateType(const DataType& input) const;
};

inline Status Accumulator::AppendState(ArrayBuilder*) const {
  return Status::Internal("this combiner's accumulators have no state form (its StateType is null)");
}

inline Status Accumulator::MergeState(const ArrayData&, int64_t) {
  return Status::Internal("this combiner's accumulators have no state form (its StateType is null)");
}

inline DataTypePtr Combiner::StateType(const DataType&) const { return nullptr; }

/// The built-in combiners: "count" (non-null values, int64), "count_all" (rows, int64), "sum"
/// (int64 for integers with overflow checked, float64 for floats), "mean" (float64), "min"
/// and "max" (int64, float64 or utf8/binary by input kind). NotFound lists them. Each has a
/// StateType: count and count_all int64; sum and mean struct<count: int64, sum: int64 or
/// float64> (an integer mean stays exact); min and max their output type, null when no value
/// was seen.
Result<std::shared_ptr<const Combiner>> BuiltinCombiner(std::string_view name);

}  // namespace recflow::pipeline
