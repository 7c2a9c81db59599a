// LiftedCombine: a combine cut into per-task partial states and their merge — a distributed combine's pre-aggregation.
#pragma once

#include <optional>
#include <vector>

#include "recflow/columnar/schema.h"
#include "recflow/pipeline/pipeline.h"

namespace recflow::pipeline {

/// A combine cut in two (combiner lifting): `partial` aggregates the rows a task has into one
/// state row per key (Accumulator::AppendState), `final` merges the state rows of each key in the
/// order they come (Accumulator::MergeState) and finishes them, so the combine's output is the
/// same as if one accumulator had merged every task's parts in that order.
struct LiftedCombine {
  /// Over the combine's input, each aggregate's state, in a column named as the aggregate's output.
  std::vector<Aggregate> partial;
  /// Over the partial rows, each aggregate's result, named as the combine's.
  std::vector<Aggregate> final;
  /// The partial rows: the combine's key columns, then the state columns.
  SchemaPtr partial_schema;
};

/// `combine` (a kCombinePerKey or kCombineGlobally node) whose input rows have schema `input`,
/// cut in two; nullopt when it is not a combine or when some aggregate's combiner has no
/// StateType (user code): its input rows are then exchanged whole.
std::optional<LiftedCombine> LiftCombine(const Node& combine, const Schema& input);

}  // namespace recflow::pipeline
