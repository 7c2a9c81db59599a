// RunPipeline: plan, then per stage open its inputs and consumers, run it on the stage executor, keep what later
// stages need; commit every output at the end.
#include "recflow/pipeline/local_runner.h"

#include <algorithm>
#include <chrono>

#include "recflow/dataset/file_commit.h"
#include "recflow/dataset/staging_registry.h"
#include "recflow/formats/batch_source.h"
#include "recflow/pipeline/abort_outputs.h"
#include "recflow/pipeline/collect_sink.h"
#include "recflow/pipeline/grouping.h"
#include "recflow/pipeline/stage_program_internal.h"

namespace recflow::pipeline {

Status RunOptions::Validate() const {
  if (max_in_flight < 0) return Status::InvalidArgument("max_in_flight must be >= 0");
  if (group_batch_rows <= 0) return Status::InvalidArgument("group_batch_rows must be > 0");
  for (const auto& [step, sink] : outputs) {
    if (sink == nullptr) return Status::InvalidArgument("the output of step '" + step + "' has no sink");
  }
  return Status::OK();
}

namespace {

// OK when every read can be read by as many passes as the plan makes over it (a read that is a
// root of several stages is read once per stage): an input that can be read only once fails
// the run here, before any data moves.
Status CheckReadPasses(const Pipeline& pipeline, const Plan& plan) {
  std::map<int, int> passes;
  for (const Stage& stage : plan.stages) {
    for (int id : stage.roots) {
      if (pipeline.node(id).kind == NodeKind::kRead) ++passes[id];
    }
  }
  for (const auto& [id, count] : passes) {
    const Node& node = pipeline.node(id);
    RETURN_NOT_OK(pipeline.StepStatus(node.name, node.input->CheckPasses(count)));
  }
  return Status::OK();
}

using Batches = std::vector<std::shared_ptr<RecordBatch>>;

// Everything a run keeps from stage to stage.
class Run {
 public:
  Run(const ExecContext& context, const Pipeline& pipeline, const Plan& plan, const RunOptions& options,
      std::map<int, Sink*> outputs, RunMetrics* metrics)
      : context_(context),
        pipeline_(pipeline),
        plan_(plan),
        options_(options),
        outputs_(std::move(outputs)),
        metrics_(metrics) {}

  Result<RunResult> Execute() {
    for (const std::string& file : pipeline_.side_files()) {
      ASSIGN_OR_RETURN(auto commit, dataset::FileCommit::Begin(context_.file_system, StagedPath(file), file));
      side_files_.push_back(std::move(commit));
    }
    for (const Node& node : pipeline_.nodes()) {
      if (node.on_error.mode == ErrorPolicy::Mode::kDeadLetter) RETURN_NOT_OK(letters_.Open(node.on_error.dead_letter));
    }
    for (size_t s = 0; s < plan_.stages.size(); ++s) RETURN_NOT_OK(Fail(RunOneStage(s)));
    // Every output is completed beside its directory first, so that a refusal (an append
    // collision, an error-mode output that gained content, a schema that does not match)
    // leaves every output as it was; then each is swapped in. Outputs are taken in the order of their paths, so that runs writing the same
    // outputs take their commit locks in one order and cannot deadlock.
    std::vector<size_t> order(sinks_.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return sinks_[a].second->resolved_output() < sinks_[b].second->resolved_output();
    });
    for (size_t k : order) RETURN_NOT_OK(Fail(StepStatus(sinks_[k].first, sinks_[k].second->Finish())));
    for (auto& [id, sink] : outputs_) RETURN_NOT_OK(Fail(StepStatus(id, sink->Finish())));
    RETURN_NOT_OK(Fail(context_.stop_token.PassPointOfNoReturn()));
    RunResult result;
    result.stages = plan_.stages.size();
    for (size_t k : order) RETURN_NOT_OK(Fail(StepStatus(sinks_[k].first, sinks_[k].second->Commit())));
    for (auto& [id, sink] : outputs_) RETURN_NOT_OK(Fail(StepStatus(id, sink->Commit())));
    for (auto& [id, sink] : sinks_) result.writes.emplace_back(pipeline_.node(id).name, sink->stats());
    for (auto& side_file : side_files_) RETURN_NOT_OK(Fail(side_file->Commit()));
    RETURN_NOT_OK(letters_.Close());
    return result;
  }

 private:
  // `st`, naming the step of node `id`.
  Status StepStatus(int id, const Status& st) const { return pipeline_.StepStatus(pipeline_.node(id).name, st); }

  // On an error: aborts every output not committed yet and removes the staged side files not
  // renamed yet, so that a failed run leaves them as they were. Returns `st` (for a cancelled
  // run, saying what was removed).
  Status Fail(Status st) {
    if (st.ok()) return st;
    std::vector<dataset::DatasetSink*> sinks;
    for (auto& [id, sink] : sinks_) sinks.push_back(sink.get());
    st = AbortOutputs(std::move(st), sinks);
    for (auto& [id, sink] : outputs_) (void)sink->Abort();
    for (auto& side_file : side_files_) {
      if (side_file->Abort().ok() && st.code() == StatusCode::kCancelled) {
        st = st.WithNote("; " + dataset::RemovedOutputNote(side_file->target()));
      }
    }
    (void)letters_.Close();
    return st;
  }

  Status RunOneStage(size_t s) {
    const Stage& stage = plan_.stages[s];
    const int number = static_cast<int>(s + 1);
    std::map<int, SideInputs> sides;
    for (int id : stage.steps) {
      for (const auto& [name, side] : pipeline_.node(id).side_inputs) sides[id].Set(name, side_values_.at(side));
    }
    std::vector<std::unique_ptr<Source>> sources;
    std::vector<Source*> inputs;
    for (int id : stage.roots) {
      const Node& node = pipeline_.node(id);
      if (node.kind == NodeKind::kRead) {
        metrics_->step(id).stage = number;
        auto source = node.input->Open();
        if (!source.ok()) return StepStatus(id, source.status());
        // Every step was typed against the schema the read had when the pipeline was built.
        if (!(*source)->schema()->Equals(*node.schema)) {
          return Status::DataError("step '" + node.name + "': the input's schema changed since the pipeline was built: " +
                                   (*source)->schema()->ToString() + " instead of " + node.schema->ToString());
        }
        sources.push_back(std::move(source).ValueUnsafe());
      } else {
        sources.push_back(MakeBatchSource(node.name, node.schema, grouped_outputs_.at(id)));
      }
      inputs.push_back(sources.back().get());
    }
    std::vector<StageSink> stage_sinks;
    std::map<int, std::unique_ptr<GroupedState>> grouped;
    std::map<int, std::unique_ptr<CollectSink>> kept;
    StageResources resources;
    for (int id : stage.steps) metrics_->step(id).stage = number;
    for (int id : stage.sinks) {
      const Node& node = pipeline_.node(id);
      metrics_->step(id).stage = number;
      const SchemaPtr& input = pipeline_.node(node.inputs[0]).schema;
      resources.consumer_sinks[id] = stage_sinks.size();
      if (node.kind == NodeKind::kWrite) {
        auto sink = dataset::DatasetSink::Open(node.sink, input);
        if (!sink.ok()) return StepStatus(id, sink.status());
        for (const auto& [other, written] : sinks_) {
          if (written->resolved_output() == (*sink)->resolved_output()) {
            return Status::InvalidArgument("steps '" + pipeline_.node(other).name + "' and '" + node.name +
                                           "' both write " + (*sink)->resolved_output());
          }
        }
        sinks_.emplace_back(id, std::move(sink).ValueUnsafe());
        stage_sinks.push_back({sinks_.back().second.get(), pipeline_.steps_named_in_errors() ? node.name : ""});
      } else {
        ASSIGN_OR_RETURN(grouped[id], GroupedState::Make(node, input));
        stage_sinks.push_back({grouped[id].get(), node.name});
      }
    }
    for (int id : stage.materialized) {
      kept[id] = std::make_unique<CollectSink>();
      resources.kept_sinks[id] = stage_sinks.size();
      stage_sinks.push_back({kept[id].get(), pipeline_.node(id).name});
    }
    for (int id : stage.outputs) {
      metrics_->step(id).stage = number;
      resources.output_sinks[id] = stage_sinks.size();
      stage_sinks.push_back({outputs_.at(id), pipeline_.node(id).name});
    }
    resources.pipeline = &pipeline_;
    resources.stage = &stage;
    resources.stage_number = number;
    resources.side_inputs = &sides;
    resources.dead_letters = &letters_;
    resources.metrics = metrics_;
    PipelineStageProgram program(resources);
    StageOptions stage_options;
    stage_options.max_in_flight = options_.max_in_flight;
    StageMetrics& stage_metrics = metrics_->stage(s);
    stage_options.progress = &stage_metrics.progress;
    stage_metrics.running = true;
    const auto start = std::chrono::steady_clock::now();
    auto stats = RunStage(context_, inputs, stage_sinks, &program, stage_options);
    stage_metrics.running = false;
    stage_metrics.wall_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
    RETURN_NOT_OK(stats.status());
    for (auto& [id, state] : grouped) {
      const Node& node = pipeline_.node(id);
      auto batches = state->TakeOutput(options_.group_batch_rows);
      if (!batches.ok()) return Status(batches.status().code(), "step '" + node.name + "': " + batches.status().message());
      auto shared = std::make_shared<const Batches>(std::move(batches).ValueUnsafe());
      int64_t rows = 0;
      for (const auto& b : *shared) rows += b->num_rows();
      metrics_->step(id).rows_out = rows;
      auto value = std::make_shared<SideInputValue>();
      value->schema = node.schema;
      value->batches = *shared;
      side_values_[id] = std::move(value);
      grouped_outputs_[id] = std::move(shared);
    }
    for (auto& [id, collected] : kept) {
      auto value = std::make_shared<SideInputValue>();
      value->schema = pipeline_.node(id).schema;
      value->batches = collected->TakeBatches();
      side_values_[id] = std::move(value);
    }
    stage_metrics.done = true;
    return Status::OK();
  }

  const ExecContext& context_;
  const Pipeline& pipeline_;
  const Plan& plan_;
  const RunOptions& options_;
  std::map<int, Sink*> outputs_;  // the caller's sinks by the node they take the rows of
  RunMetrics* metrics_;
  DeadLetters letters_;
  std::vector<std::pair<int, std::unique_ptr<dataset::DatasetSink>>> sinks_;  // committed at the end
  std::vector<std::unique_ptr<dataset::FileCommit>> side_files_;            // per side file, removed on termination
  std::map<int, std::shared_ptr<const Batches>> grouped_outputs_;              // per barrier node
  std::map<int, std::shared_ptr<const SideInputValue>> side_values_;         // per side-input node
};

// `outputs` by node id; InvalidArgument naming the steps when a name is not one of them.
Result<std::map<int, Sink*>> ResolveOutputs(const Pipeline& pipeline, const std::map<std::string, Sink*>& outputs) {
  std::map<int, Sink*> ids;
  for (const auto& [step, sink] : outputs) {
    const auto& nodes = pipeline.nodes();
    const auto it = std::find_if(nodes.begin(), nodes.end(), [&](const Node& n) { return n.name == step; });
    if (it == nodes.end()) {
      std::string names;
      for (const Node& n : nodes) names += (names.empty() ? "" : ", ") + n.name;
      return Status::InvalidArgument("no step '" + step + "' to output (steps: " + names + ")");
    }
    ids[it->id] = sink;
  }
  return ids;
}

}  // namespace

Result<RunResult> RunPipeline(const ExecContext& context, const Pipeline& pipeline, const RunOptions& options,
                              RunMetrics* metrics) {
  RETURN_NOT_OK(context.Validate());
  RETURN_NOT_OK(options.Validate());
  if (pipeline.has_deferred()) {
    return Status::InvalidArgument("the pipeline was built to be planned before its inputs exist; it cannot run");
  }
  ASSIGN_OR_RETURN(auto outputs, ResolveOutputs(pipeline, options.outputs));
  std::vector<int> output_ids;
  for (const auto& [id, sink] : outputs) output_ids.push_back(id);
  ASSIGN_OR_RETURN(Plan plan, MakePlan(pipeline, output_ids));
  RETURN_NOT_OK(CheckReadPasses(pipeline, plan));
  RunMetrics local;
  if (metrics == nullptr) metrics = &local;
  metrics->Reset(pipeline, plan.stages.size());
  Run run(context, pipeline, plan, options, std::move(outputs), metrics);
  return run.Execute();
}

}  // namespace recflow::pipeline
