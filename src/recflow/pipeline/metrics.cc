// RunMetrics: rendering the counters as live text, a table and JSON.
#include "recflow/pipeline/metrics.h"

#include <array>
#include <cstdio>
#include <tuple>
#include <utility>

#include "recflow/formats/jsonl/json_writer.h"

namespace recflow::pipeline {

namespace {

// A step's counters (StepMetrics, const or not), in the one order Counters, AddCounters and Reset go over them.
auto StepCounters(auto& m) {
  return std::array{&m.rows_in, &m.rows_out, &m.batches, &m.busy_ns, &m.failed_rows, &m.skipped_rows, &m.dead_letters};
}

// A stage's counters (StageMetrics, const or not), likewise.
auto StageCounters(auto& m) {
  auto& p = m.progress;
  return std::array{&p.input_bytes, &p.records, &p.skipped, &p.units_read, &p.units_started, &p.units_done, &m.wall_ns};
}

constexpr size_t kPerStep = std::tuple_size_v<decltype(StepCounters(std::declval<StepMetrics&>()))>;
constexpr size_t kPerStage = std::tuple_size_v<decltype(StageCounters(std::declval<StageMetrics&>()))>;

}  // namespace

std::vector<int64_t> RunMetrics::Counters() const {
  std::vector<int64_t> counters;
  for (const StepMetrics& m : steps_) {
    for (const auto* c : StepCounters(m)) counters.push_back(c->load(std::memory_order_relaxed));
  }
  for (const StageMetrics& m : stages_) {
    for (const auto* c : StageCounters(m)) counters.push_back(c->load(std::memory_order_relaxed));
  }
  return counters;
}

std::vector<int> RunMetrics::StepStages() const {
  std::vector<int> stages;
  for (const StepMetrics& m : steps_) stages.push_back(m.stage);
  return stages;
}

Status RunMetrics::AddCounters(const std::vector<int64_t>& counters, const std::vector<int>& step_stages) {
  if (counters.size() != steps_.size() * kPerStep + stages_.size() * kPerStage || step_stages.size() != steps_.size()) {
    return Status::InvalidArgument("the task's metrics have " + std::to_string(counters.size()) +
                                   " counters, not those of this pipeline's " + std::to_string(steps_.size()) +
                                   " steps and " + std::to_string(stages_.size()) + " stages");
  }
  size_t k = 0;
  for (size_t i = 0; i < steps_.size(); ++i) {
    StepMetrics& m = steps_[i];
    if (step_stages[i] != 0) m.stage = step_stages[i];
    for (auto* c : StepCounters(m)) c->fetch_add(counters[k++], std::memory_order_relaxed);
  }
  for (StageMetrics& m : stages_) {
    for (auto* c : StageCounters(m)) c->fetch_add(counters[k++], std::memory_order_relaxed);
    m.done.store(true, std::memory_order_relaxed);
  }
  return Status::OK();
}

void RunMetrics::AddCut(const RunMetrics& part, const std::vector<CutOrigin>& origin, size_t part_stage,
                        size_t stage) {
  for (size_t i = 0; i < part.steps_.size() && i < origin.size(); ++i) {
    if (origin[i].node < 0) continue;
    StepMetrics& to = steps_[static_cast<size_t>(origin[i].node)];
    const auto from = StepCounters(part.steps_[i]);
    const auto into = StepCounters(to);
    for (size_t c = 0; c < kPerStep; ++c) {
      if (from[c] == &part.steps_[i].rows_in && !origin[i].rows_in) continue;
      if (from[c] == &part.steps_[i].rows_out && !origin[i].rows_out) continue;
      into[c]->fetch_add(from[c]->load(std::memory_order_relaxed));
    }
  }
  if (part_stage >= part.stages_.size()) return;
  const auto from = StageCounters(part.stages_[part_stage]);
  const auto into = StageCounters(stages_[stage]);
  for (size_t c = 0; c < kPerStage; ++c) into[c]->fetch_add(from[c]->load(std::memory_order_relaxed));
  stages_[stage].done.store(true, std::memory_order_relaxed);
}

void RunMetrics::Reset(const Pipeline& pipeline, size_t stages) {
  if (steps_.size() != pipeline.nodes().size() || stages_.size() != stages) {
    steps_.clear();
    stages_.clear();
    for (size_t i = 0; i < pipeline.nodes().size(); ++i) steps_.emplace_back();
    for (size_t s = 0; s < stages; ++s) stages_.emplace_back();
  }
  // The counters are zeroed in place: a display that took their addresses before the run started
  // (convert's progress bar) keeps reading them.
  for (const Node& node : pipeline.nodes()) {
    StepMetrics& m = step(node.id);
    if (m.name != node.name) m.name = node.name;
    if (m.kind != NodeKindName(node.kind)) m.kind = std::string(NodeKindName(node.kind));
    m.stage = 0;
    for (auto* c : StepCounters(m)) c->store(0, std::memory_order_relaxed);
  }
  for (StageMetrics& m : stages_) {
    m.name.clear();
    for (auto* c : StageCounters(m)) c->store(0, std::memory_order_relaxed);
    m.running.store(false, std::memory_order_relaxed);
    m.done.store(false, std::memory_order_relaxed);
  }
}

namespace {

int64_t Load(const std::atomic<int64_t>& v) { return v.load(std::memory_order_relaxed); }

std::string Format(const char* format, auto... args) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, format, args...);
  return buffer;
}

}  // namespace

std::string RunMetrics::LiveText() const {
  std::string text;
  for (size_t s = 0; s < stages_.size(); ++s) {
    const StageMetrics& stage = stages_[s];
    if (!stage.running.load()) continue;
    const StageProgress& p = stage.progress;
    text += Format("stage %zu/%zu: %lld records, queue %lld, in progress %lld\n", s + 1, stages_.size(),
                   static_cast<long long>(Load(p.records)),
                   static_cast<long long>(Load(p.units_read) - Load(p.units_started)),
                   static_cast<long long>(Load(p.units_started) - Load(p.units_done)));
    for (const StepMetrics& step : steps_) {
      if (step.stage != static_cast<int>(s + 1)) continue;
      text += Format("  %-24s %12lld in %12lld out %8.1f s busy\n", step.name.c_str(),
                     static_cast<long long>(Load(step.rows_in)), static_cast<long long>(Load(step.rows_out)),
                     static_cast<double>(Load(step.busy_ns)) / 1e9);
    }
  }
  return text;
}

std::string RunMetrics::Table() const {
  int64_t total_busy = 0;
  for (const StepMetrics& step : steps_) total_busy += Load(step.busy_ns);
  std::string text = Format("%-24s %-16s %5s %12s %12s %9s %9s %6s %12s %8s\n", "step", "kind", "stage", "rows in",
                            "rows out", "batches", "busy s", "busy%", "rows/s busy", "failed");
  for (const StepMetrics& step : steps_) {
    const double busy = static_cast<double>(Load(step.busy_ns)) / 1e9;
    const double share = total_busy > 0 ? 100.0 * static_cast<double>(Load(step.busy_ns)) / static_cast<double>(total_busy) : 0;
    const double rate = busy > 0 ? static_cast<double>(Load(step.rows_in)) / busy : 0;
    text += Format("%-24s %-16s %5d %12lld %12lld %9lld %9.2f %5.1f%% %12.0f %8lld\n", step.name.c_str(),
                   step.kind.c_str(), step.stage, static_cast<long long>(Load(step.rows_in)),
                   static_cast<long long>(Load(step.rows_out)), static_cast<long long>(Load(step.batches)), busy, share,
                   rate, static_cast<long long>(Load(step.failed_rows)));
  }
  for (size_t s = 0; s < stages_.size(); ++s) {
    const StageMetrics& stage = stages_[s];
    const double wall = static_cast<double>(Load(stage.wall_ns)) / 1e9;
    const std::string name = stage.name.empty() ? std::to_string(s + 1) : stage.name;
    text += Format("stage %s: %.2f s, %lld records read, %lld skipped by the reader\n", name.c_str(), wall,
                   static_cast<long long>(Load(stage.progress.records)),
                   static_cast<long long>(Load(stage.progress.skipped)));
  }
  return text;
}

std::string RunMetrics::Json() const {
  std::string out;
  jsonl::JsonWriter w(&out);
  w.BeginObject();
  w.Key("stages");
  w.BeginArray();
  for (size_t s = 0; s < stages_.size(); ++s) {
    const StageMetrics& stage = stages_[s];
    w.BeginObject();
    w.Key("stage");
    w.Int(static_cast<int64_t>(s + 1));
    if (!stage.name.empty()) {
      w.Key("name");
      w.String(stage.name);
    }
    w.Key("wall_seconds");
    w.Double(static_cast<double>(Load(stage.wall_ns)) / 1e9);
    w.Key("records");
    w.Int(Load(stage.progress.records));
    w.Key("skipped_by_reader");
    w.Int(Load(stage.progress.skipped));
    w.Key("input_bytes");
    w.Int(Load(stage.progress.input_bytes));
    w.Key("units");
    w.Int(Load(stage.progress.units_done));
    w.EndObject();
  }
  w.EndArray();
  w.Key("steps");
  w.BeginArray();
  for (const StepMetrics& step : steps_) {
    w.BeginObject();
    w.Key("name");
    w.String(step.name);
    w.Key("kind");
    w.String(step.kind);
    w.Key("stage");
    w.Int(step.stage);
    for (const auto& [key, value] :
         {std::pair<const char*, const std::atomic<int64_t>*>{"rows_in", &step.rows_in}, {"rows_out", &step.rows_out},
          {"batches", &step.batches}, {"failed_rows", &step.failed_rows}, {"skipped_rows", &step.skipped_rows},
          {"dead_letters", &step.dead_letters}}) {
      w.Key(key);
      w.Int(Load(*value));
    }
    w.Key("busy_seconds");
    w.Double(static_cast<double>(Load(step.busy_ns)) / 1e9);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return out;
}

}  // namespace recflow::pipeline
