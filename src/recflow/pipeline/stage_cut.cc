// CutStage and CheckStage: a plan's stage rebuilt through the Pipeline builder, roots and groupings swapped for the
// task's input and the exchange writes.
#include "recflow/pipeline/stage_cut.h"

#include <algorithm>

#include "recflow/pipeline/key_partition.h"

namespace recflow::pipeline {

namespace {

bool IsGroupingKind(NodeKind kind) {
  return kind == NodeKind::kGroupByKey || kind == NodeKind::kCombinePerKey || kind == NodeKind::kCombineGlobally;
}

// InvalidArgument: step `node` cannot run on a distributed run, because `why`.
Status NotCuttable(const Node& node, const std::string& why) {
  return Status::InvalidArgument("step '" + node.name + "' (" + std::string(NodeKindName(node.kind)) + ") " + why +
                                 ": a distributed run does not cut such a stage yet");
}

// Node `node` rebuilt in `cut` on `inputs` (already in `cut`).
PCollection Rebuild(Pipeline& cut, const Node& node, const std::vector<PCollection>& inputs) {
  switch (node.kind) {
    case NodeKind::kParDo: {
      StepOptions options;
      options.on_error = node.on_error;
      options.description = node.description;
      return cut.ParDo(node.name, inputs[0], node.fn, std::move(options));
    }
    case NodeKind::kFlatten: return cut.Flatten(node.name, inputs);
    case NodeKind::kGroupByKey: return cut.GroupByKey(node.name, inputs[0], node.keys, node.on_error);
    case NodeKind::kCombinePerKey:
      return cut.CombinePerKey(node.name, inputs[0], node.keys, node.aggregates, node.on_error);
    case NodeKind::kCombineGlobally: return cut.CombineGlobally(node.name, inputs[0], node.aggregates, node.on_error);
    case NodeKind::kWrite: cut.Write(node.name, inputs[0], node.sink, node.description); return {};
    case NodeKind::kRead: break;
  }
  return {};
}

}  // namespace

Result<StageShape> CheckStage(const Pipeline& pipeline, const Stage& stage) {
  if (!stage.materialized.empty()) {
    return NotCuttable(pipeline.node(stage.materialized[0]), "is a side input");
  }
  if (!pipeline.side_files().empty()) {
    return Status::InvalidArgument("the pipeline writes the side file " + pipeline.side_files()[0].path +
                                   ": a distributed run does not write side files yet");
  }
  StageShape shape;
  shape.roots = stage.roots;
  for (int id : stage.roots) {
    const Node& root = pipeline.node(id);
    if (root.kind == NodeKind::kRead && stage.roots.size() > 1) {
      return NotCuttable(root, "is read in a pass of " + std::to_string(stage.roots.size()) + " inputs");
    }
  }
  std::vector<int> nodes = stage.roots;
  nodes.insert(nodes.end(), stage.steps.begin(), stage.steps.end());
  nodes.insert(nodes.end(), stage.sinks.begin(), stage.sinks.end());
  for (int id : nodes) {
    const Node& node = pipeline.node(id);
    if (node.windowing != nullptr) return NotCuttable(node, "is windowed");
    if (!node.side_inputs.empty()) return NotCuttable(node, "takes side inputs");
  }
  for (int id : stage.sinks) {
    (pipeline.node(id).kind == NodeKind::kWrite ? shape.writes : shape.groupings).push_back(id);
  }
  return shape;
}

std::string ExchangeStepName(const Node& grouping) { return grouping.name + ".exchange"; }

Result<StageCut> CutStage(const Pipeline& whole, const Stage& stage, const StageShape& shape,
                          const StageCutOptions& options) {
  StageCut cut;
  cut.pipeline = std::make_unique<Pipeline>();
  Pipeline& p = *cut.pipeline;
  p.set_file_system(whole.file_system());
  p.set_steps_named_in_errors(whole.steps_named_in_errors());
  std::map<int, PCollection> made;  // whole's node id -> its rows in the cut
  auto origin_of = [&](const PCollection& rows, int id) {
    if (rows.node() >= 0) cut.origin.resize(static_cast<size_t>(rows.node()) + 1, -1);
    if (rows.node() >= 0) cut.origin[static_cast<size_t>(rows.node())] = id;
  };
  for (int id : shape.roots) {
    const Node& root = whole.node(id);
    if (!IsGroupingKind(root.kind)) {
      made[id] = p.Read(root.name, options.input, root.description, root.on_error);
      origin_of(made[id], id);
      continue;
    }
    const auto input = options.grouped.find(id);
    if (input == options.grouped.end()) {  // none of this task's: no rows of its output
      made[id] = p.Create(root.name, root.schema, {});
      continue;
    }
    const Node& entry = whole.node(root.inputs[0]);
    const PCollection rows = input->second
                                 ? p.Read(ExchangeStepName(root), input->second, "the exchange of " + entry.name)
                                 : p.Create(ExchangeStepName(root), entry.schema, {});
    if (rows.node() >= 0 && !rows.schema()->Equals(*entry.schema)) {
      return Status::DataError("step '" + root.name + "': the exchanged rows have the schema " +
                               rows.schema()->ToString() + ", not " + entry.schema->ToString());
    }
    made[id] = Rebuild(p, root, {rows});
    origin_of(made[id], id);
  }
  for (int id : stage.steps) {
    const Node& node = whole.node(id);
    std::vector<PCollection> inputs;
    for (int input : node.inputs) inputs.push_back(made.at(input));
    made[id] = Rebuild(p, node, inputs);
    origin_of(made[id], id);
  }
  for (int id : shape.writes) {
    const Node& node = whole.node(id);
    const size_t before = p.nodes().size();
    Rebuild(p, node, {made.at(node.inputs[0])});
    if (p.nodes().size() > before) origin_of(PCollection(&p, static_cast<int>(before)), id);
  }
  for (int id : shape.groupings) {
    const Node& grouping = whole.node(id);
    const auto exchange = options.exchanges.find(id);
    if (exchange == options.exchanges.end()) {
      return Status::InvalidArgument("no exchange given for step '" + grouping.name + "'");
    }
    const PCollection numbered = p.ParDo(grouping.name + ".partition", made.at(grouping.inputs[0]),
                                         MakeKeyPartitionFn(grouping.keys, options.partitions));
    p.Write(ExchangeStepName(grouping), numbered, exchange->second);
  }
  RETURN_NOT_OK(p.status());
  cut.origin.resize(p.nodes().size(), -1);
  return cut;
}

}  // namespace recflow::pipeline
