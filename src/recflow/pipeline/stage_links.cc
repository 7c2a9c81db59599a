// StageLinks: producers of grouped outputs, their readers and side-input users, and the dead-letter order.
#include "recflow/pipeline/stage_links.h"

namespace recflow::pipeline {

std::set<std::string> StageDeadLetters(const Pipeline& pipeline, const Stage& stage) {
  std::set<std::string> paths;
  for (const std::vector<int>* ids : {&stage.roots, &stage.steps, &stage.sinks}) {
    for (int id : *ids) {
      const Node& node = pipeline.node(id);
      const bool written_here = ids != &stage.roots || node.kind == NodeKind::kRead;
      if (written_here && node.on_error.mode == ErrorPolicy::Mode::kDeadLetter) paths.insert(node.on_error.dead_letter);
    }
  }
  return paths;
}

StageLinks LinkStages(const Pipeline& pipeline, const Plan& plan) {
  StageLinks links;
  const size_t n = plan.stages.size();
  links.waits_for.resize(n);
  std::map<int, size_t> kept_in;                 // materialized node → its stage
  std::map<int, std::vector<size_t>> readers;    // grouped node → the stages reading it
  std::set<int> side_inputs;                     // nodes some step takes as a side input
  for (size_t s = 0; s < n; ++s) {
    const Stage& stage = plan.stages[s];
    for (int id : stage.sinks) {
      if (pipeline.node(id).kind != NodeKind::kWrite) links.producer[id] = s;
    }
    for (int id : stage.materialized) kept_in[id] = s;
    for (int id : stage.roots) {
      if (pipeline.node(id).kind != NodeKind::kRead) readers[id].push_back(s);
    }
  }
  for (const Node& node : pipeline.nodes()) {
    for (const auto& [name, side] : node.side_inputs) side_inputs.insert(side);
  }
  for (const auto& [id, stages] : readers) {
    if (stages.size() == 1 && side_inputs.count(id) == 0) links.streamed[id] = stages[0];
  }
  std::vector<size_t> letter_stages;
  for (size_t s = 0; s < n; ++s) {
    const Stage& stage = plan.stages[s];
    std::set<size_t>& waits = links.waits_for[s];
    for (int id : stage.roots) {
      if (pipeline.node(id).kind != NodeKind::kRead && links.streamed.count(id) == 0) waits.insert(links.producer.at(id));
    }
    for (int id : stage.steps) {
      for (const auto& [name, side] : pipeline.node(id).side_inputs) {
        auto kept = kept_in.find(side);
        waits.insert(kept != kept_in.end() ? kept->second : links.producer.at(side));
      }
    }
    if (!StageDeadLetters(pipeline, stage).empty()) {
      waits.insert(letter_stages.begin(), letter_stages.end());
      letter_stages.push_back(s);
    }
  }
  return links;
}

bool PanesGoLive(const StageLinks& links, const Plan& plan, const Pipeline& pipeline, int id) {
  const auto reader = links.streamed.find(id);
  if (reader == links.streamed.end()) return false;
  for (int root : plan.stages[reader->second].roots) {
    if (root == id) break;
    if (pipeline.node(root).kind != NodeKind::kRead) return false;
  }
  const size_t producer = links.producer.at(id);
  std::vector<size_t> todo{reader->second};
  std::set<size_t> seen;
  while (!todo.empty()) {
    const size_t s = todo.back();
    todo.pop_back();
    for (size_t d : links.waits_for[s]) {
      if (d == producer) return false;
      if (seen.insert(d).second) todo.push_back(d);
    }
  }
  return true;
}

}  // namespace recflow::pipeline
