// Plan: a pipeline cut into stages — each stage one pass over its inputs, with element-wise steps fused and
// GroupByKey, combines and side inputs as the boundaries between passes.
#pragma once

#include <string>
#include <vector>

#include "recflow/pipeline/pipeline.h"

namespace recflow::pipeline {

/// One pass of the runner: its inputs are read once, every element-wise step runs fused on
/// each unit, and the results go to the stage's consumers.
struct Stage {
  /// Nodes whose rows enter the stage: reads (read again in each stage that needs them) and
  /// GroupByKey / combine nodes of earlier stages (their materialized output).
  std::vector<int> roots;
  /// The element-wise nodes (ParDo, Flatten) run on each unit, in graph order. A node that
  /// several stages need runs in each of them.
  std::vector<int> steps;
  /// Writes, GroupByKeys and combines fed by this stage.
  std::vector<int> sinks;
  /// Nodes whose whole output is kept as a side input of a later stage.
  std::vector<int> materialized;
  /// Nodes whose rows go to a sink the caller supplies (RunOptions::outputs), in input order.
  std::vector<int> outputs;
};

/// The stages in the order they run.
struct Plan {
  std::vector<Stage> stages;
};

/// Cuts `pipeline` into stages: a step runs in the first stage after all of its side inputs
/// are complete and after the GroupByKeys and combines it reads from; reads and element-wise
/// steps are recomputed where a later stage needs them. Steps that feed nothing are left out;
/// the nodes of `outputs` (ids of steps with rows, not writes) are consumed by the caller's
/// sinks, in the first stage in which their rows flow. The pipeline's build error, if any, is
/// returned instead.
Result<Plan> MakePlan(const Pipeline& pipeline, const std::vector<int>& outputs = {});

/// The plan as text: one block per stage listing its inputs, fused steps and consumers, with
/// each node's kind, description and schema (for a deferred node, why it is not known yet).
std::string PlanToText(const Pipeline& pipeline, const Plan& plan);

/// One line per read of `pipeline` whose input does not exist yet, naming it and the steps whose
/// checks wait for it (none when nothing is deferred); `recflow plan` prints them as warnings.
std::vector<std::string> DeferredSummary(const Pipeline& pipeline);

/// Each node's stage as the per-step table numbers it (1-based; 0 for a node no stage runs): the
/// last stage of `plan` it is a read root, an element-wise step, a sink or an output of.
std::vector<int> StepStageNumbers(const Pipeline& pipeline, const Plan& plan);

/// The pipeline as a Graphviz digraph, nodes clustered by stage, side inputs dashed.
std::string PlanToDot(const Pipeline& pipeline, const Plan& plan);

}  // namespace recflow::pipeline
