// CutStage and CheckStage: a plan's stage rebuilt through the Pipeline builder, roots and groupings swapped for the
// task's input and the exchange writes.
#include "recflow/pipeline/stage_cut.h"

#include <algorithm>
#include <optional>
#include <set>

#include "recflow/pipeline/key_partition.h"
#include "recflow/pipeline/lifted_combine.h"

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

// Node `node` rebuilt in `cut` on `inputs` and the side inputs `sides` (by the whole's node id; already in `cut`).
PCollection Rebuild(Pipeline& cut, const Node& node, const std::vector<PCollection>& inputs,
                    const std::map<int, PCollection>& sides = {}) {
  switch (node.kind) {
    case NodeKind::kParDo: {
      StepOptions options;
      options.on_error = node.on_error;
      options.description = node.description;
      for (const auto& [name, side] : node.side_inputs) options.side_inputs.emplace_back(name, sides.at(side));
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

// The combine `node` of `aggregates` rebuilt in `cut` as step `name` over `rows`.
PCollection Combine(Pipeline& cut, const std::string& name, const Node& node, const PCollection& rows,
                    std::vector<Aggregate> aggregates) {
  if (node.kind == NodeKind::kCombineGlobally) return cut.CombineGlobally(name, rows, std::move(aggregates), node.on_error);
  return cut.CombinePerKey(name, rows, node.keys, std::move(aggregates), node.on_error);
}

// The combine `grouping` of `whole` cut in two, or nullopt (not a combine, or an aggregate without a state form).
std::optional<LiftedCombine> Lifted(const Pipeline& whole, const Node& grouping) {
  return LiftCombine(grouping, *whole.node(grouping.inputs[0]).schema);
}

// Appends to `cut` the partition step `partition` over `rows` and the task-mode write `step` of its exchange.
void WriteExchange(Pipeline& cut, const PCollection& rows, const std::vector<std::string>& keys,
                   const std::string& partition, const std::string& step, const dataset::SinkOptions& sink,
                   int partitions) {
  cut.Write(step, cut.ParDo(partition, rows, MakeKeyPartitionFn(keys, partitions)), sink);
}

}  // namespace

std::vector<Stage> DistributedStages(const Pipeline& pipeline, const Plan& plan, std::vector<std::string>* names) {
  std::set<int> side_groupings;
  for (const Node& node : pipeline.nodes()) {
    for (const auto& [name, side] : node.side_inputs) {
      if (IsGroupingKind(pipeline.node(side).kind)) side_groupings.insert(side);
    }
  }
  std::vector<Stage> stages;
  for (size_t s = 0; s < plan.stages.size(); ++s) {
    const Stage& stage = plan.stages[s];
    stages.push_back(stage);
    if (names != nullptr) names->push_back(std::to_string(s + 1));
    for (int id : stage.sinks) {
      if (side_groupings.count(id) == 0) continue;
      Stage& side = stages.emplace_back();
      side.roots = {id};
      side.materialized = {id};
      if (names != nullptr) names->push_back(std::to_string(s + 1) + " (side value of " + pipeline.node(id).name + ")");
    }
  }
  return stages;
}

Result<StageShape> CheckStage(const Pipeline& pipeline, const Stage& stage) {
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
    if (!node.side_inputs.empty() && node.kind != NodeKind::kParDo) return NotCuttable(node, "takes side inputs");
    for (const auto& [name, side] : node.side_inputs) {
      if (std::find(shape.side_reads.begin(), shape.side_reads.end(), side) == shape.side_reads.end()) {
        shape.side_reads.push_back(side);
      }
    }
  }
  shape.kept = stage.materialized;
  for (int id : stage.sinks) {
    (pipeline.node(id).kind == NodeKind::kWrite ? shape.writes : shape.groupings).push_back(id);
  }
  return shape;
}

std::string ExchangeStepName(const Node& grouping) { return grouping.name + ".exchange"; }

std::string PartialStepName(const Node& grouping) { return grouping.name + ".partial"; }

SchemaPtr ExchangeSchema(const Pipeline& whole, const Node& grouping) {
  const std::optional<LiftedCombine> lifted = Lifted(whole, grouping);
  return lifted ? lifted->partial_schema : whole.node(grouping.inputs[0]).schema;
}

std::string SideStepName(const Node& kept) { return kept.name + ".side"; }

Result<StageCut> CutStage(const Pipeline& whole, const Stage& stage, const StageShape& shape,
                          const StageCutOptions& options) {
  StageCut cut;
  cut.pipeline = std::make_unique<Pipeline>();
  Pipeline& p = *cut.pipeline;
  p.set_file_system(whole.file_system());
  p.set_steps_named_in_errors(whole.steps_named_in_errors());
  std::map<int, PCollection> made;  // whole's node id -> its rows in the cut
  auto origin_of = [&](const PCollection& rows, CutOrigin origin) {
    if (rows.node() < 0) return;
    cut.origin.resize(std::max(cut.origin.size(), static_cast<size_t>(rows.node()) + 1));
    cut.origin[static_cast<size_t>(rows.node())] = origin;
  };
  for (int id : shape.roots) {
    const Node& root = whole.node(id);
    if (!IsGroupingKind(root.kind)) {
      made[id] = p.Read(root.name, options.input, root.description, root.on_error);
      origin_of(made[id], {id});
      continue;
    }
    const auto input = options.grouped.find(id);
    if (input == options.grouped.end()) {  // none of this task's: no rows of its output
      made[id] = p.Create(root.name, root.schema, {});
      continue;
    }
    const Node& entry = whole.node(root.inputs[0]);
    const std::optional<LiftedCombine> lifted = Lifted(whole, root);
    const SchemaPtr exchanged = lifted ? lifted->partial_schema : entry.schema;
    const PCollection rows = input->second
                                 ? p.Read(ExchangeStepName(root), input->second, "the exchange of " + entry.name)
                                 : p.Create(ExchangeStepName(root), exchanged, {});
    if (rows.node() >= 0 && !rows.schema()->Equals(*exchanged)) {
      return Status::DataError("step '" + root.name + "': the exchanged rows have the schema " +
                               rows.schema()->ToString() + ", not " + exchanged->ToString());
    }
    // A pre-aggregated combine merges states: its rows in were counted by the partial step feeding the exchange.
    made[id] = lifted ? Combine(p, root.name, root, rows, lifted->final) : Rebuild(p, root, {rows});
    origin_of(made[id], {id, !lifted, true});
  }
  std::map<int, PCollection> sides;  // whole's side-input node id -> its committed value read in the cut
  for (int id : shape.side_reads) {
    const Node& side = whole.node(id);
    const auto value = options.sides.find(id);
    if (value == options.sides.end()) return Status::InvalidArgument("no side value given for step '" + side.name + "'");
    sides[id] = value->second ? p.Read(SideStepName(side), value->second, "the side input " + side.name)
                              : p.Create(SideStepName(side), side.schema, {});
    if (sides[id].node() >= 0 && !sides[id].schema()->Equals(*side.schema)) {
      return Status::DataError("step '" + side.name + "': its side value has the schema " +
                               sides[id].schema()->ToString() + ", not " + side.schema->ToString());
    }
  }
  for (int id : stage.steps) {
    const Node& node = whole.node(id);
    std::vector<PCollection> inputs;
    for (int input : node.inputs) inputs.push_back(made.at(input));
    made[id] = Rebuild(p, node, inputs, sides);
    origin_of(made[id], {id});
  }
  for (int id : shape.writes) {
    const Node& node = whole.node(id);
    const size_t before = p.nodes().size();
    Rebuild(p, node, {made.at(node.inputs[0])});
    if (p.nodes().size() > before) origin_of(PCollection(&p, static_cast<int>(before)), {id});
  }
  for (int id : shape.groupings) {
    const Node& grouping = whole.node(id);
    const auto exchange = options.exchanges.find(id);
    if (exchange == options.exchanges.end()) {
      return Status::InvalidArgument("no exchange given for step '" + grouping.name + "'");
    }
    PCollection rows = made.at(grouping.inputs[0]);
    if (const std::optional<LiftedCombine> lifted = Lifted(whole, grouping)) {
      // One state row per key leaves the task; the combine's rows out are counted where the states are merged.
      rows = Combine(p, PartialStepName(grouping), grouping, rows, lifted->partial);
      origin_of(rows, {id, true, false});
    }
    WriteExchange(p, rows, grouping.keys, grouping.name + ".partition", ExchangeStepName(grouping), exchange->second,
                  options.partitions);
  }
  for (int id : shape.kept) {
    const Node& kept = whole.node(id);
    const auto side = options.kept.find(id);
    if (side == options.kept.end()) return Status::InvalidArgument("no side value given for step '" + kept.name + "'");
    WriteExchange(p, made.at(id), {}, SideStepName(kept) + ".partition", SideStepName(kept), side->second,
                  options.partitions);
  }
  RETURN_NOT_OK(p.status());
  cut.origin.resize(p.nodes().size());
  // Planned as if a caller consumed the root's rows: its stage is found even when the cut feeds nothing from it.
  const int root = made.at(shape.roots[0]).node();
  ASSIGN_OR_RETURN(const Plan plan, MakePlan(p, {root}));
  for (size_t s = 0; s < plan.stages.size(); ++s) {
    const std::vector<int>& roots = plan.stages[s].roots;
    if (std::find(roots.begin(), roots.end(), root) == roots.end()) continue;
    cut.counted_stage = s;
    return cut;
  }
  return Status::Internal("step '" + whole.node(shape.roots[0]).name + "' starts no stage of its cut");
}

}  // namespace recflow::pipeline
