// MakePlan: stage numbers from the graph (side inputs and grouping push a step into a later pass), then each stage's
// nodes found by walking back from its consumers.
#include "recflow/pipeline/plan.h"

#include <algorithm>
#include <set>

namespace recflow::pipeline {

namespace {

bool IsBarrier(NodeKind kind) {
  return kind == NodeKind::kGroupByKey || kind == NodeKind::kCombinePerKey || kind == NodeKind::kCombineGlobally;
}

// Adds node `id` and the element-wise nodes it needs (back to reads and barriers) to `steps`
// and `roots`.
void CollectUpstream(const Pipeline& pipeline, int id, std::set<int>* steps, std::set<int>* roots) {
  const Node& node = pipeline.node(id);
  if (node.kind == NodeKind::kRead || IsBarrier(node.kind)) {
    roots->insert(id);
    return;
  }
  if (!steps->insert(id).second) return;
  for (int input : node.inputs) CollectUpstream(pipeline, input, steps, roots);
}

}  // namespace

Result<Plan> MakePlan(const Pipeline& pipeline, const std::vector<int>& outputs) {
  RETURN_NOT_OK(pipeline.status());
  const auto& nodes = pipeline.nodes();
  std::vector<bool> output(nodes.size(), false);
  for (int id : outputs) {
    if (id < 0 || static_cast<size_t>(id) >= nodes.size()) return Status::InvalidArgument("no step " + std::to_string(id));
    if (nodes[static_cast<size_t>(id)].kind == NodeKind::kWrite) {
      return Status::InvalidArgument("step '" + nodes[static_cast<size_t>(id)].name +
                                     "' writes files and has no rows to send to an output");
    }
    output[static_cast<size_t>(id)] = true;
  }
  // avail[n]: the stage in which n's rows flow; consume[n]: the stage a sink reads its input in.
  std::vector<int> avail(nodes.size(), 0), consume(nodes.size(), 0);
  std::vector<bool> side_input(nodes.size(), false);
  for (const Node& node : nodes) {
    int level = 0;
    for (int input : node.inputs) level = std::max(level, avail[static_cast<size_t>(input)]);
    for (const auto& [name, side] : node.side_inputs) {
      const bool barrier = IsBarrier(nodes[static_cast<size_t>(side)].kind);
      level = std::max(level, avail[static_cast<size_t>(side)] + (barrier ? 0 : 1));
      if (!barrier) side_input[static_cast<size_t>(side)] = true;
    }
    consume[static_cast<size_t>(node.id)] = level;
    avail[static_cast<size_t>(node.id)] = IsBarrier(node.kind) ? level + 1 : level;
  }
  int last = 0;
  for (const Node& node : nodes) {
    if (node.kind == NodeKind::kWrite || IsBarrier(node.kind)) last = std::max(last, consume[static_cast<size_t>(node.id)]);
    if (output[static_cast<size_t>(node.id)]) last = std::max(last, avail[static_cast<size_t>(node.id)]);
  }
  Plan plan;
  for (int level = 0; level <= last; ++level) {
    std::set<int> steps, roots;
    Stage stage;
    for (const Node& node : nodes) {
      const size_t id = static_cast<size_t>(node.id);
      const bool sink = (node.kind == NodeKind::kWrite || IsBarrier(node.kind)) && consume[id] == level;
      const bool kept = side_input[id] && avail[id] == level;
      if (sink) {
        stage.sinks.push_back(node.id);
        for (int input : node.inputs) CollectUpstream(pipeline, input, &steps, &roots);
      }
      const bool out = output[id] && avail[id] == level;
      if (kept) stage.materialized.push_back(node.id);
      if (out) stage.outputs.push_back(node.id);
      if (kept || out) CollectUpstream(pipeline, node.id, &steps, &roots);
    }
    if (stage.sinks.empty() && stage.materialized.empty() && stage.outputs.empty()) continue;
    stage.steps.assign(steps.begin(), steps.end());
    stage.roots.assign(roots.begin(), roots.end());
    plan.stages.push_back(std::move(stage));
  }
  if (plan.stages.empty()) return Status::InvalidArgument("the pipeline writes nothing: add a write step");
  return plan;
}

namespace {

std::string NodeLine(const Node& node) {
  std::string line = node.name + " [" + std::string(NodeKindName(node.kind)) + "]";
  if (!node.description.empty()) line += " " + node.description;
  if (!node.deferred.empty() && node.kind != NodeKind::kRead) line += " (checks wait for the input)";
  return line;
}

std::string Columns(const Schema& schema) {
  std::string text;
  for (const FieldPtr& f : schema.fields()) text += (text.empty() ? "" : ", ") + f->name() + ": " + f->type()->ToString();
  return text;
}

std::string DotEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string PlanToText(const Pipeline& pipeline, const Plan& plan) {
  std::string text;
  for (size_t s = 0; s < plan.stages.size(); ++s) {
    const Stage& stage = plan.stages[s];
    text += "stage " + std::to_string(s + 1) + " of " + std::to_string(plan.stages.size()) + "\n";
    auto section = [&](const char* title, const std::vector<int>& ids) {
      if (ids.empty()) return;
      text += std::string("  ") + title + "\n";
      for (int id : ids) {
        const Node& node = pipeline.node(id);
        text += "    " + NodeLine(node) + "\n";
        if (!node.inputs.empty() && title != std::string("inputs")) {
          text += "      from:";
          for (int input : node.inputs) text += " " + pipeline.node(input).name;
          for (const auto& [name, side] : node.side_inputs) text += " side " + name + "=" + pipeline.node(side).name;
          text += "\n";
        }
        if (node.windowing != nullptr && node.kind != NodeKind::kParDo && node.kind != NodeKind::kFlatten) {
          text += "      per window: " + node.windowing->strategy.ToString() + ", event time " + node.windowing->event_time +
                  "\n";
        }
        if (!node.deferred.empty()) {
          text += "      rows: not known yet (" + node.deferred + "); columns and types are checked when it exists\n";
        } else if (node.kind != NodeKind::kWrite) {
          text += "      rows: " + Columns(*node.schema) + "\n";
        }
      }
    };
    section("inputs", stage.roots);
    section("steps (fused)", stage.steps);
    section("consumers", stage.sinks);
    section("kept as side inputs", stage.materialized);
    section("outputs", stage.outputs);
  }
  return text;
}

std::vector<std::string> DeferredSummary(const Pipeline& pipeline) {
  std::vector<std::string> lines;
  for (const Node& read : pipeline.nodes()) {
    if (read.kind != NodeKind::kRead || read.deferred.empty()) continue;
    std::string waiting;
    for (const Node& node : pipeline.nodes()) {
      if (node.id != read.id && node.deferred_read == read.id) waiting += (waiting.empty() ? "" : ", ") + node.name;
    }
    lines.push_back("step '" + read.name + "': " + read.deferred + "; the columns and types of " +
                    (waiting.empty() ? std::string("its consumers") : "steps " + waiting) + " are checked when it exists");
  }
  return lines;
}

std::string PlanToDot(const Pipeline& pipeline, const Plan& plan) {
  std::string dot = "digraph pipeline {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n";
  std::set<int> placed;
  for (size_t s = 0; s < plan.stages.size(); ++s) {
    dot += "  subgraph cluster_" + std::to_string(s) + " {\n    label=\"stage " + std::to_string(s + 1) + "\";\n";
    const Stage& stage = plan.stages[s];
    for (const auto* ids : {&stage.steps, &stage.sinks, &stage.outputs}) {
      for (int id : *ids) {
        if (!placed.insert(id).second) continue;
        dot += "    n" + std::to_string(id) + ";\n";
      }
    }
    dot += "  }\n";
  }
  for (const Node& node : pipeline.nodes()) {
    dot += "  n" + std::to_string(node.id) + " [label=\"" + DotEscape(NodeLine(node)) + "\"];\n";
    for (int input : node.inputs) dot += "  n" + std::to_string(input) + " -> n" + std::to_string(node.id) + ";\n";
    for (const auto& [name, side] : node.side_inputs) {
      dot += "  n" + std::to_string(side) + " -> n" + std::to_string(node.id) + " [style=dashed, label=\"" +
             DotEscape(name) + "\"];\n";
    }
  }
  return dot + "}\n";
}

std::vector<int> StepStageNumbers(const Pipeline& pipeline, const Plan& plan) {
  std::vector<int> numbers(pipeline.nodes().size(), 0);
  for (size_t s = 0; s < plan.stages.size(); ++s) {
    const Stage& stage = plan.stages[s];
    const int number = static_cast<int>(s + 1);
    for (int id : stage.roots) {
      if (pipeline.node(id).kind == NodeKind::kRead) numbers[static_cast<size_t>(id)] = number;
    }
    for (const std::vector<int>* ids : {&stage.steps, &stage.sinks, &stage.outputs}) {
      for (int id : *ids) numbers[static_cast<size_t>(id)] = number;
    }
  }
  return numbers;
}

}  // namespace recflow::pipeline
