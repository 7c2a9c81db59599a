// RunPipeline: plan, open every stage's consumers, run each stage on a thread of its own once the stages it waits for
// have read their input (grouped outputs streaming through bounded queues), keep what later stages need; commit every
// output at the end.
#include "recflow/pipeline/local_runner.h"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "recflow/core/kill_point.h"
#include "recflow/dataset/staging_registry.h"
#include "recflow/formats/batch_source.h"
#include "recflow/formats/checkpointed_source.h"
#include "recflow/pipeline/abort_outputs.h"
#include "recflow/pipeline/batch_queue.h"
#include "recflow/pipeline/checkpoint.h"
#include "recflow/pipeline/collect_sink.h"
#include "recflow/pipeline/epoch_tag.h"
#include "recflow/pipeline/run_files.h"
#include "recflow/pipeline/grouping.h"
#include "recflow/pipeline/stage_links.h"
#include "recflow/pipeline/stage_program_internal.h"
#include "recflow/pipeline/window_snapshot.h"
#include "recflow/pipeline/windowed_grouping.h"

namespace recflow::pipeline {

Status RunOptions::Validate() const {
  if (max_in_flight < 0) return Status::InvalidArgument("max_in_flight must be >= 0");
  if (group_batch_rows <= 0) return Status::InvalidArgument("group_batch_rows must be > 0");
  if (queue_batches <= 0) return Status::InvalidArgument("queue_batches must be > 0");
  if (checkpoint_interval_ms < 0) return Status::InvalidArgument("checkpoint_interval_ms must be >= 0");
  for (const auto& [step, sink] : outputs) {
    if (sink == nullptr) return Status::InvalidArgument("the output of step '" + step + "' has no sink");
  }
  return Status::OK();
}

namespace {

// OK when RunOptions::inputs names read steps and RunOptions::tasks write steps of `pipeline`.
Status CheckTaskSteps(const Pipeline& pipeline, const RunOptions& options) {
  auto kind_of = [&](const std::string& name) -> std::optional<NodeKind> {
    for (const Node& node : pipeline.nodes()) {
      if (node.name == name) return node.kind;
    }
    return std::nullopt;
  };
  for (const auto& [name, factory] : options.inputs) {
    if (kind_of(name) != NodeKind::kRead || factory == nullptr) {
      return Status::InvalidArgument("the run's input '" + name + "' is no read step of the pipeline");
    }
  }
  for (const auto& [name, task] : options.tasks) {
    if (kind_of(name) != NodeKind::kWrite) {
      return Status::InvalidArgument("the run's task '" + name + "' is no write step of the pipeline");
    }
  }
  return Status::OK();
}

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

// What one stage feeds, opened before any stage runs, and how far the stage got.
struct StageRun {
  std::vector<StageSink> sinks;
  std::map<int, std::unique_ptr<GroupedState>> grouped;
  std::map<int, WindowedGrouping*> windowed;  // the grouped nodes that group per window (in `grouped`)
  std::map<int, std::unique_ptr<CollectSink>> kept;
  std::map<int, size_t> consumer_sinks;  // per write and grouped node: its index in `sinks`
  std::map<int, size_t> kept_sinks;      // per materialized node: its index in `sinks`
  std::map<int, size_t> output_sinks;    // per node whose rows go to a caller's sink: its index in `sinks`
  StopSource stop;                       // requested when an earlier stage fails
  bool ready = false;                    // it read all its input and kept what later stages need (Run::mutex_)
};

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
        metrics_(metrics),
        links_(LinkStages(pipeline, plan)),
        files_(context.file_system, context.stop_token),
        stages_(plan.stages.size()),
        unbounded_(pipeline.unbounded() ||
                   (!options.checkpoint_dir.empty() && !pipeline.acknowledged_reads().empty())) {}

  Result<RunResult> Execute() {
    if (!options_.checkpoint_dir.empty()) {
      if (!unbounded_) return Status::InvalidArgument("a checkpoint is for a pipeline with an unbounded input");
      // Side files (summaries of the whole run) and the files steps write per row outside a stage committing per
      // epoch commit at the run's end: a restart from a checkpoint would never make again those of the rows it covers.
      // The per-row files of a stage committing per epoch commit with each epoch (epoch_files_).
      if (!pipeline_.side_files().empty()) {
        return Status::InvalidArgument("a checkpoint cannot cover side files (summaries of the whole run, committed at "
                                       "its end): run this pipeline without --checkpoint")
            .WithFile(pipeline_.side_files().front().path);
      }
      files_.RefuseStaging("a step writes this file per row in a stage that commits at the run's end (only the stage "
                           "writing a windowed grouping's panes commits per epoch), so a checkpoint cannot cover its "
                           "row: run this pipeline without --checkpoint");
      ASSIGN_OR_RETURN(resume_, ReadCheckpoint(*context_.file_system, options_.checkpoint_dir));
      if (resume_.has_value()) saved_ = *resume_;
      // A drained run's checkpoint ends its generation: this run is the next one, reading on from its positions.
      next_generation_ = resume_.has_value() && resume_->drained;
      if (next_generation_) {
        resume_ = NextGeneration(*resume_);
        saved_ = *resume_;
      }
      generation_ = saved_.generation;
      files_.set_generation(generation_);
    }
    for (const SideFile& file : pipeline_.side_files()) RETURN_NOT_OK(files_.Stage(file.path).status());
    for (const Node& node : pipeline_.nodes()) {
      if (node.on_error.mode != ErrorPolicy::Mode::kDeadLetter) continue;
      const std::string& path = node.on_error.dead_letter;
      const auto moved = options_.dead_letter_files.find(path);
      // A restart keeps the letters of what its checkpoint covers (and the earlier generations'); the input after the
      // checkpoint's positions comes again and makes the rest again.
      std::optional<int64_t> keep;
      if (const auto saved = saved_.letters.find(path); resume_.has_value() && saved != saved_.letters.end()) {
        keep = saved->second;
      }
      const Status opened = letters_.Open(path, *context_.file_system,
                                          moved == options_.dead_letter_files.end() ? "" : moved->second, keep);
      if (!opened.ok() && keep.has_value()) {
        return opened.WithNote("; checkpoint " + CheckpointFile(options_.checkpoint_dir));
      }
      RETURN_NOT_OK(opened);
    }
    const std::vector<int> numbers = StepStageNumbers(pipeline_, plan_);
    for (size_t id = 0; id < numbers.size(); ++id) {
      if (numbers[id] != 0) metrics_->step(static_cast<int>(id)).stage = numbers[id];
    }
    for (size_t s = 0; s < plan_.stages.size(); ++s) RETURN_NOT_OK(Fail(OpenStage(s)));
    for (size_t s = 0; s < plan_.stages.size(); ++s) HoldMessages(s);
    // A first run saves an empty checkpoint before anything commits: a restart after a crash resumes (appends) even
    // when no epoch's checkpoint was written yet.
    if (!options_.checkpoint_dir.empty() && !resume_.has_value()) {
      RETURN_NOT_OK(Fail(WriteCheckpoint(*context_.file_system, options_.checkpoint_dir, Checkpoint{})));
    }
    // So does the first run of a generation, its start: a restart after a crash resumes in this generation.
    if (next_generation_) RETURN_NOT_OK(Fail(WriteCheckpoint(*context_.file_system, options_.checkpoint_dir, saved_)));
    for (const auto& streamed : links_.streamed) {
      queues_[streamed.first] = std::make_unique<BatchQueue>(static_cast<size_t>(options_.queue_batches));
      StreamPanesLive(streamed.first);
    }
    RETURN_NOT_OK(Fail(RunStages()));
    // Every output is completed beside its directory first, so that a refusal (an append
    // collision, an error-mode output that gained content, a schema that does not match)
    // leaves every output as it was; then each is swapped in. Outputs are taken in the order of their paths, so that runs writing the same
    // outputs take their commit locks in one order and cannot deadlock.
    std::vector<size_t> order(sinks_.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return sinks_[a].second->resolved_output() < sinks_[b].second->resolved_output();
    });
    // The last epoch of a checkpointed write that was committed before (re-made after a restart) is dropped, as every
    // such epoch before it; when it got no rows, it is not committed (a restarted run that finds nothing new adds no
    // file).
    std::vector<size_t> kept;
    for (size_t k : order) {
      const int id = sinks_[k].first;
      const bool remade = Remade(id);
      if (!remade) {
        RETURN_NOT_OK(Fail(StepStatus(id, sinks_[k].second->Finish())));
        if (epochs_.count(id) == 0 || sinks_[k].second->stats().records > 0) {
          kept.push_back(k);
          continue;
        }
      }
      RETURN_NOT_OK(Fail(StepStatus(id, sinks_[k].second->Abort())));
      if (remade) {
        std::lock_guard<std::mutex> lock(checkpoint_mutex_);
        ++epochs_.at(id);
      }
    }
    order = std::move(kept);
    for (auto& [id, sink] : outputs_) RETURN_NOT_OK(Fail(StepStatus(id, sink->Finish())));
    for (auto& [id, sink] : other_sinks_) RETURN_NOT_OK(Fail(StepStatus(id, sink->Finish())));
    for (const SideFile& file : pipeline_.side_files()) RETURN_NOT_OK(Fail(WriteSideFile(file)));
    RETURN_NOT_OK(Fail(context_.stop_token.PassPointOfNoReturn()));
    RunResult result;
    result.stages = plan_.stages.size();
    for (size_t k : order) RETURN_NOT_OK(Fail(StepStatus(sinks_[k].first, sinks_[k].second->Commit())));
    for (auto& [id, sink] : outputs_) RETURN_NOT_OK(Fail(StepStatus(id, sink->Commit())));
    RETURN_NOT_OK(Fail(files_.Commit()));
    // The last epoch's files, then the messages that name them (held since the last epoch commit).
    for (auto& [s, files] : epoch_files_) RETURN_NOT_OK(Fail(CommitHeld(s)));
    for (auto& [id, sink] : other_sinks_) RETURN_NOT_OK(Fail(StepStatus(id, sink->Commit())));
    for (auto& [id, sink] : sinks_) result.writes.emplace_back(pipeline_.node(id).name, sink->stats());
    RETURN_NOT_OK(letters_.Close());
    for (size_t k : order) {
      if (epochs_.count(sinks_[k].first) != 0) EpochCommitted(sinks_[k].first);
    }
    for (size_t s = 0; s < plan_.stages.size() && !options_.checkpoint_dir.empty(); ++s) {
      if (CommitsEpochs(s)) RETURN_NOT_OK(SaveCheckpoint(s));
    }
    // Only now is what every record produced committed: the sources may acknowledge their input.
    for (auto& [id, source] : read_sources_) RETURN_NOT_OK(StepStatus(id, source->Committed()));
    return result;
  }

 private:
  // `st`, naming the step of node `id`.
  Status StepStatus(int id, const Status& st) const { return pipeline_.StepStatus(pipeline_.node(id).name, st); }

  // Writes `file`'s staged copy from the value of the node it is made from.
  Status WriteSideFile(const SideFile& file) {
    const auto value = side_values_.find(file.node);
    if (value == side_values_.end()) return Status::Internal("side file " + file.path + ": its value was not kept");
    return StepStatus(file.node, file.write(*value->second, *context_.file_system, StagedPath(file.path)));
  }

  // On an error: aborts every output not committed yet and removes the staged side files not
  // renamed yet, so that a failed run leaves them as they were. Returns `st` (for a cancelled
  // run, saying what was removed).
  Status Fail(Status st) {
    if (st.ok()) return st;
    std::vector<dataset::DatasetSink*> sinks;
    for (auto& [id, sink] : sinks_) sinks.push_back(sink.get());
    st = AbortOutputs(std::move(st), sinks);
    for (auto& [id, sink] : outputs_) (void)sink->Abort();
    for (auto& [id, sink] : other_sinks_) (void)sink->Abort();
    std::vector<std::string> removed = files_.Abort();
    for (auto& [s, files] : epoch_files_) {
      for (std::string& target : files->Abort()) removed.push_back(std::move(target));
    }
    for (const std::string& target : removed) {
      if (st.code() == StatusCode::kCancelled) st = st.WithNote("; " + dataset::RemovedOutputNote(target));
    }
    (void)letters_.Close();
    return st;
  }

  // Opens the consumers of stage `s` (in plan order, before any stage runs, so that two writes of
  // one output are found before any row is read).
  Status OpenStage(size_t s) {
    const Stage& stage = plan_.stages[s];
    StageRun& run = stages_[s];
    for (int id : stage.sinks) {
      const Node& node = pipeline_.node(id);
      const SchemaPtr& input = pipeline_.node(node.inputs[0]).schema;
      run.consumer_sinks[id] = run.sinks.size();
      if (node.kind == NodeKind::kWrite && node.open_sink != nullptr) {
        auto sink = node.open_sink(input, generation_);
        if (!sink.ok()) return StepStatus(id, sink.status());
        other_sinks_.emplace_back(id, std::move(sink).ValueUnsafe());
        run.sinks.push_back({other_sinks_.back().second.get(), node.name});
      } else if (node.kind == NodeKind::kWrite) {
        dataset::SinkOptions sink_options = node.sink;
        if (const auto task = options_.tasks.find(node.name); task != options_.tasks.end()) sink_options.task = task->second;
        if (!options_.checkpoint_dir.empty() && CommitsEpochs(s)) {
          epochs_[id] = 0;
          if (resume_.has_value()) {
            if (const auto saved = resume_->epochs.find(node.name); saved != resume_->epochs.end()) epochs_[id] = saved->second;
            // A broker's epochs are not made again alike (where one ends depends on how the pulls cut the stream): the
            // epochs committed after the checkpoint are taken back out of the output, to be made again from its state.
            if (!pipeline_.acknowledged_reads().empty()) RETURN_NOT_OK(StepStatus(id, TakeBackEpochsFrom(id)));
          }
          past_restart_[id] = false;
          sink_options = EpochOptions(id);
        }
        auto sink = dataset::DatasetSink::Open(sink_options, input, context_.file_system);
        if (!sink.ok()) return StepStatus(id, sink.status());
        for (const auto& [other, written] : sinks_) {
          if (written->resolved_output() == (*sink)->resolved_output()) {
            return Status::InvalidArgument("steps '" + pipeline_.node(other).name + "' and '" + node.name +
                                           "' both write " + (*sink)->resolved_output());
          }
        }
        sinks_.emplace_back(id, std::move(sink).ValueUnsafe());
        run.sinks.push_back({sinks_.back().second.get(), pipeline_.steps_named_in_errors() ? node.name : ""});
      } else if (node.windowing != nullptr) {
        ASSIGN_OR_RETURN(auto windowed, WindowedGrouping::Make(node, input, &letters_, &metrics_->step(id)));
        RETURN_NOT_OK(RestoreState(node, *windowed));
        run.windowed[id] = windowed.get();
        run.grouped[id] = std::move(windowed);
        run.sinks.push_back({run.grouped[id].get(), node.name});
      } else {
        ASSIGN_OR_RETURN(run.grouped[id], GroupedState::Make(node, input));
        run.sinks.push_back({run.grouped[id].get(), node.name});
      }
    }
    for (int id : stage.materialized) {
      run.kept[id] = std::make_unique<CollectSink>();
      run.kept_sinks[id] = run.sinks.size();
      run.sinks.push_back({run.kept[id].get(), pipeline_.node(id).name});
    }
    for (int id : stage.outputs) {
      run.output_sinks[id] = run.sinks.size();
      run.sinks.push_back({outputs_.at(id), pipeline_.node(id).name});
    }
    return Status::OK();
  }

  // When grouped node `id` is windowed and its reader need not wait for the end of its stage
  // (PanesGoLive), its panes go into the reader's queue as they fire.
  void StreamPanesLive(int id) {
    const size_t producer = links_.producer.at(id);
    auto windowed = stages_[producer].windowed.find(id);
    if (windowed == stages_[producer].windowed.end() || !PanesGoLive(links_, plan_, pipeline_, id)) return;
    windowed->second->StreamPanes(queues_.at(id).get(), options_.group_batch_rows);
  }

  // Runs every stage on a thread of its own (the last on the calling thread, so a run of one
  // stage starts no thread) and waits for them and the grouped outputs they stream; the error of
  // the earliest failing stage, if any.
  Status RunStages() {
    auto run_stage = [this](size_t s) {
      Status st = WaitForInputs(s);
      if (st.ok()) st = RunOneStage(s);
      // Whatever its end, the stage reads no more of the grouped outputs streaming into it.
      for (int id : plan_.stages[s].roots) {
        if (auto queue = queues_.find(id); queue != queues_.end()) queue->second->Abandon(st);
      }
      std::lock_guard<std::mutex> lock(mutex_);
      stages_[s].ready = true;
      StageEnded(s, st);
    };
    std::vector<std::thread> threads;
    for (size_t s = 0; s + 1 < stages_.size(); ++s) threads.emplace_back(run_stage, s);
    run_stage(stages_.size() - 1);
    for (std::thread& thread : threads) thread.join();
    for (std::thread& drain : drains_) drain.join();  // started by the stage threads, all joined
    return error_;
  }

  // Waits until the stages `s` waits for are ready, or `s` is stopped (Cancelled).
  Status WaitForInputs(size_t s) {
    const StopToken stop = stages_[s].stop.token();
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] {
      if (stop.stop_requested()) return true;
      for (size_t d : links_.waits_for[s]) {
        if (!stages_[d].ready) return false;
      }
      return true;
    });
    return stop.Poll();
  }

  // With mutex_ held: records the end of stage `s` (or of a grouped output it streams). A failure
  // becomes the run's error unless an earlier stage failed too (the one a run of one stage after
  // the other would report); it stops every later stage and the grouped outputs they read, while
  // earlier stages run on.
  void StageEnded(size_t s, const Status& st) {
    if (!st.ok()) {
      if (error_.ok() || s < error_stage_) {
        error_ = st;
        error_stage_ = s;
      }
      for (size_t later = s + 1; later < stages_.size(); ++later) stages_[later].stop.RequestStop();
      for (auto& [id, queue] : queues_) {
        if (links_.streamed.at(id) > s) queue->Abandon(Status::Cancelled("an earlier stage failed"));
      }
    }
    changed_.notify_all();
  }

  // Opens read node `node`'s source, checked against the schema the pipeline was built with.
  Result<std::unique_ptr<Source>> OpenRead(const Node& node) const {
    const auto task_input = options_.inputs.find(node.name);
    auto source = task_input != options_.inputs.end() ? task_input->second(context_.file_system)
                                                      : node.input->Open(context_.file_system);
    if (!source.ok()) return pipeline_.StepStatus(node.name, source.status());
    // Every step was typed against the schema the read had when the pipeline was built.
    if (!(*source)->schema()->Equals(*node.schema)) {
      return pipeline_.StepStatus(node.name, Status::DataError("the input's schema changed since the pipeline was built: " +
                                                               (*source)->schema()->ToString() + " instead of " +
                                                               node.schema->ToString()));
    }
    return source;
  }

  // True when stage `s` commits per epoch: an unbounded pipeline's stage that only writes what one windowed
  // grouping hands it while its stage reads (see QueueSource).
  bool CommitsEpochs(size_t s) const {
    const Stage& stage = plan_.stages[s];
    if (!unbounded_ || stage.roots.size() != 1 || !stage.materialized.empty() || !stage.outputs.empty()) {
      return false;
    }
    for (int id : stage.sinks) {
      if (pipeline_.node(id).kind != NodeKind::kWrite) return false;
    }
    return PanesGoLive(links_, plan_, pipeline_, stage.roots[0]) && stages_[links_.producer.at(stage.roots[0])].windowed.count(stage.roots[0]) != 0;
  }

  // Commits what the writes of stage `s` hold (an epoch) and opens them again to append the next. With a checkpoint,
  // an epoch committed before the restart is dropped, and each one committed is saved in the checkpoint.
  Status CommitEpoch(size_t s) {
    StageRun& run = stages_[s];
    for (int id : plan_.stages[s].sinks) {
      const Node& node = pipeline_.node(id);
      // A write that is no dataset (write_nats) made its epoch durable as it took it: each batch's Emit returned once
      // the server had acknowledged it. It stays open for the next epoch.
      if (node.open_sink != nullptr) continue;
      auto written = std::find_if(sinks_.begin(), sinks_.end(), [id](const auto& entry) { return entry.first == id; });
      if (Remade(id)) {
        RETURN_NOT_OK(StepStatus(id, written->second->Abort()));
        std::lock_guard<std::mutex> lock(checkpoint_mutex_);  // another stage's checkpoint reads the count
        ++epochs_.at(id);
      } else {
        RETURN_NOT_OK(StepStatus(id, written->second->Finish()));
        RETURN_NOT_OK(StepStatus(id, written->second->Commit()));
        if (epochs_.count(id) != 0) EpochCommitted(id);
      }
      dataset::SinkOptions options = node.sink;
      options.mode = dataset::SaveMode::kAppend;
      if (epochs_.count(id) != 0) options = EpochOptions(id);
      auto next = dataset::DatasetSink::Open(options, pipeline_.node(node.inputs[0]).schema, context_.file_system);
      if (!next.ok()) return StepStatus(id, next.status());
      run.sinks[run.consumer_sinks.at(id)].sink = next->get();
      written->second = std::move(next).ValueUnsafe();
    }
    RETURN_NOT_OK(CommitHeld(s));
    return options_.checkpoint_dir.empty() ? Status::OK() : SaveCheckpoint(s);
  }

  // Has the writes of stage `s` that are no dataset (write_nats) hold what they would publish until the outputs a
  // message may name are committed (Sink::HoldEpochs). A stage committing per epoch gets files of its own, committed
  // with each epoch, and its messages follow each epoch's commit (CommitHeld). Any other stage's messages follow the
  // run's commit (their Commit comes after the datasets' and the files'), so that a failed run published none — when
  // the run commits datasets or files at all; messages that are its only output go as they come, none held.
  void HoldMessages(size_t s) {
    const bool epochs = CommitsEpochs(s);
    if (epochs) {
      epoch_files_[s] = std::make_unique<RunFiles>(context_.file_system, context_.stop_token);
      epoch_files_[s]->set_generation(generation_);
    } else if (sinks_.empty() && pipeline_.side_files().empty() && !pipeline_.writes_files_per_row()) {
      return;
    }
    StageRun& run = stages_[s];
    for (int id : plan_.stages[s].sinks) {
      if (pipeline_.node(id).open_sink != nullptr) run.sinks[run.consumer_sinks.at(id)].sink->HoldEpochs();
    }
  }

  // After stage `s`'s datasets committed an epoch: renames in the files its steps wrote per row during the epoch, then
  // has its other writes publish what they held (HoldEpochs), so that no message names a file not there yet. Before
  // the epoch's checkpoint: a crash in between makes the epoch again (the same names, the same Nats-Msg-Ids).
  Status CommitHeld(size_t s) {
    RETURN_NOT_OK(epoch_files_.at(s)->Commit());
    KillPoint("epoch-files-committed");
    const StageRun& run = stages_[s];
    for (int id : plan_.stages[s].sinks) {
      if (pipeline_.node(id).open_sink == nullptr) continue;
      RETURN_NOT_OK(StepStatus(id, run.sinks[run.consumer_sinks.at(id)].sink->CommitEpoch()));
    }
    return Status::OK();
  }

  // The sink options of checkpointed write `id`'s current epoch: its files tagged with the epoch's number, so that an
  // epoch made again after a restart has the same names; appended, but for the first epoch of a run not resumed.
  dataset::SinkOptions EpochOptions(int id) const {
    dataset::SinkOptions options = pipeline_.node(id).sink;
    const int64_t epoch = epochs_.at(id);
    options.epoch_tag = EpochTag({generation_, epoch});
    if (resume_.has_value() || epoch > 0) options.mode = dataset::SaveMode::kAppend;
    return options;
  }

  // True when checkpointed write `id`'s current epoch was committed before the restart: the checkpoint counts it, or
  // its files are in the output (committed after the last checkpoint: a crash before the next one, or an interval).
  bool Remade(int id) {
    const auto epoch = epochs_.find(id);
    if (epoch == epochs_.end() || !resume_.has_value() || past_restart_.at(id)) return false;
    const auto committed = resume_->epochs.find(pipeline_.node(id).name);
    if (committed != resume_->epochs.end() && epoch->second < committed->second) return true;
    const dataset::SinkOptions& options = pipeline_.node(id).sink;
    const auto files = OutputFiles(options.output);
    const auto named = [&](const auto& file) {
      return ParseEpochTag(file.second, options.prefix) == EpochId{generation_, epoch->second};
    };
    if (std::any_of(files.begin(), files.end(), named)) return true;
    past_restart_.at(id) = true;
    return false;
  }

  // Removes from checkpointed write `id`'s output the files of this generation's epochs from its current one on
  // (committed after the checkpoint the run resumes from); earlier generations' files stay.
  Status TakeBackEpochsFrom(int id) {
    const dataset::SinkOptions& options = pipeline_.node(id).sink;
    for (const auto& [dir, name] : OutputFiles(options.output)) {
      const std::optional<EpochId> tag = ParseEpochTag(name, options.prefix);
      if (tag.has_value() && tag->generation == generation_ && tag->epoch >= epochs_.at(id)) {
        RETURN_NOT_OK(context_.file_system->Remove(dir + "/" + name));
      }
    }
    return Status::OK();
  }

  // The files under `dir` and its key=value partition directories: each one's directory and name.
  std::vector<std::pair<std::string, std::string>> OutputFiles(const std::string& dir) const {
    std::vector<std::pair<std::string, std::string>> files;
    auto names = context_.file_system->ListDirectory(dir);
    if (!names.ok()) return files;
    for (const std::string& name : *names) {
      if (name.find('=') == std::string::npos) {
        files.emplace_back(dir, name);
        continue;
      }
      for (auto& file : OutputFiles(dir + "/" + name)) files.push_back(std::move(file));
    }
    return files;
  }

  // Checkpointed write `id` committed its current epoch: counts it.
  void EpochCommitted(int id) {
    KillPoint("epoch-committed");
    std::lock_guard<std::mutex> lock(checkpoint_mutex_);
    ++epochs_.at(id);
  }

  // OK when unbounded read `read` of stage `s` (of a checkpointed run) feeds nothing but one windowed grouping whose
  // panes a stage committing per epoch writes, with no dead letters in that stage (its epochs are made again from the
  // grouping's state: no position says which letters they made): the grouping's snapshot is then all the state a
  // restart needs besides the read's position and the lengths of the dead-letter files of stage `s`, which must be
  // files of their own (no other stage appends to them, so their length at a mark is the letters of what the
  // position covers). Checked before the stage reads a row.
  Status CheckSnapshotted(size_t s, const Node& read) const {
    const Stage& stage = plan_.stages[s];
    bool fits = stage.roots.size() == 1 && stage.sinks.size() == 1 && stage.materialized.empty() && stage.outputs.empty() &&
                stages_[s].windowed.count(stage.sinks[0]) != 0 && links_.streamed.count(stage.sinks[0]) != 0;
    const size_t reader = fits ? links_.streamed.at(stage.sinks[0]) : s;
    if (!(fits && CommitsEpochs(reader) && StageDeadLetters(pipeline_, plan_.stages[reader]).empty())) {
      return pipeline_.StepStatus(
          read.name, Status::InvalidArgument("a checkpoint snapshots one windowed grouping fed by this "
                                             "unbounded read, whose panes only writes with no dead letters "
                                             "take; this pipeline has another shape: run it without "
                                             "--checkpoint"));
    }
    for (const std::string& path : StageDeadLetters(pipeline_, plan_.stages[s])) {
      if (path == "-") {
        return pipeline_.StepStatus(read.name, Status::InvalidArgument("a checkpoint cannot take back dead letters "
                                                                       "written to standard output: write them to a "
                                                                       "file, or run without --checkpoint"));
      }
      for (size_t other = 0; other < plan_.stages.size(); ++other) {
        if (other != s && StageDeadLetters(pipeline_, plan_.stages[other]).count(path) != 0) {
          return pipeline_.StepStatus(read.name, Status::InvalidArgument("a checkpoint keeps the dead letters of the "
                                                                         "steps before a windowed grouping in files of "
                                                                         "their own, and a step of another stage "
                                                                         "writes this one too: give those steps "
                                                                         "another dead_letter file")
                                                     .WithFile(path));
        }
      }
    }
    return Status::OK();
  }

  // With a checkpoint to resume: restores the state the checkpoint saved for windowed grouping `node`, if any.
  Status RestoreState(const Node& node, WindowedGrouping& grouping) {
    if (!resume_.has_value()) return Status::OK();
    const auto file = resume_->states.find(node.name);
    if (file == resume_->states.end()) return Status::OK();
    ASSIGN_OR_RETURN(auto data, ReadStateFile(*context_.file_system, options_.checkpoint_dir, file->second));
    const std::string path = options_.checkpoint_dir + "/" + file->second.name;
    ASSIGN_OR_RETURN(GroupingSnapshot snapshot, DecodeSnapshot(data, path));
    const Status st = grouping.Restore(snapshot);
    return st.ok() ? st : pipeline_.StepStatus(node.name, st.WithFile(path));
  }

  // Asked by the windowed groupings at the ends of epochs: true (and the interval starts again) when it passed.
  bool CheckpointDue() {
    std::lock_guard<std::mutex> lock(checkpoint_mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (now - last_checkpoint_ < std::chrono::milliseconds(options_.checkpoint_interval_ms)) return false;
    last_checkpoint_ = now;
    return true;
  }

  // Stage `s` committed an epoch of the panes of the windowed grouping it reads: when the grouping left a snapshot at
  // that epoch's end, saves the checkpoint — its state file, the position of its read then, the epochs every
  // checkpointed write committed, and what the other groupings saved last.
  Status SaveCheckpoint(size_t s) {
    const int grouping = plan_.stages[s].roots[0];
    std::lock_guard<std::mutex> lock(checkpoint_mutex_);
    const int64_t epoch = ++stage_epochs_[s];
    auto taken = snapshots_.find({grouping, epoch});
    if (taken == snapshots_.end()) return Status::OK();  // none at its end: inside a file, or no checkpoint due
    Taken snapshot = std::move(taken->second);
    snapshots_.erase(snapshots_.lower_bound({grouping, 0}), std::next(taken));
    // A name no earlier checkpoint used: the one it names stays as it is until this one replaces it.
    const std::string name = fmt::format("{}-{:06d}-{}", run_tag_, ++states_written_, grouping);
    auto file = WriteStateFile(*context_.file_system, options_.checkpoint_dir, name, *snapshot.state);
    if (!file.ok()) return StepStatus(grouping, file.status());
    saved_.states[pipeline_.node(grouping).name] = *file;
    saved_.positions[snapshot.read] = snapshot.position;
    for (const auto& [path, length] : snapshot.letters) saved_.letters[path] = length;
    // Drained once every grouping it saves is: a restart on it starts the next generation.
    drained_[pipeline_.node(grouping).name] = snapshot.drained;
    saved_.drained = std::all_of(saved_.states.begin(), saved_.states.end(),
                                 [&](const auto& state) { return drained_[state.first]; });
    for (const auto& [write, count] : epochs_) {
      int64_t& saved = saved_.epochs[pipeline_.node(write).name];
      saved = std::max(saved, count);
    }
    RETURN_NOT_OK(StepStatus(grouping, WriteCheckpoint(*context_.file_system, options_.checkpoint_dir, saved_)));
    KillPoint("checkpoint-written");
    // Durable: the read may release what the position covers (the NATS source acknowledges those messages).
    const auto& [read_id, source] = checkpointed_reads_.at(snapshot.read);
    return StepStatus(read_id, source->Checkpointed(snapshot.position));
  }

  // With a checkpoint: resumes read `node`'s `source` past its saved position, and has the windowed grouping it feeds
  // (stage `s`'s only consumer, CheckSnapshotted) hand its snapshots over with the read's position at their marks.
  Status CheckpointRead(size_t s, const Node& node, Source* source) {
    if (options_.checkpoint_dir.empty() || !source->unbounded()) return Status::OK();
    auto* checkpointed = dynamic_cast<CheckpointedSource*>(source);
    if (checkpointed == nullptr) {
      return pipeline_.StepStatus(node.name, Status::InvalidArgument("this unbounded input cannot be checkpointed"));
    }
    RETURN_NOT_OK(CheckSnapshotted(s, node));
    {
      std::lock_guard<std::mutex> lock(checkpoint_mutex_);
      checkpointed_reads_[node.name] = {node.id, checkpointed};
    }
    if (resume_.has_value()) {
      if (const auto saved = resume_->positions.find(node.name); saved != resume_->positions.end()) {
        const Status st = checkpointed->Resume(saved->second);
        if (!st.ok()) return pipeline_.StepStatus(node.name, st.WithFile(CheckpointFile(options_.checkpoint_dir)));
      }
    }
    const int grouping = plan_.stages[s].sinks[0];
    SnapshotHook hook;
    hook.wanted = [this, checkpointed](window::Millis watermark) {
      return checkpointed->PositionAt(watermark).has_value() && CheckpointDue();
    };
    // On stage `s`'s in-order path, where its dead letters are written: those of every row before the mark are in.
    hook.taken = [this, grouping, checkpointed, read = node.name, paths = StageDeadLetters(pipeline_, plan_.stages[s])](
                     int64_t epoch, window::Millis watermark, GroupingSnapshot snapshot) -> Status {
      std::vector<std::string> position =
          watermark == window::kEndOfTime ? checkpointed->Position() : *checkpointed->PositionAt(watermark);
      ASSIGN_OR_RETURN(std::shared_ptr<Buffer> state, EncodeSnapshot(snapshot));
      std::map<std::string, int64_t> letters;
      for (const std::string& path : paths) {
        ASSIGN_OR_RETURN(letters[path], letters_.MakeDurable(path));
      }
      std::lock_guard<std::mutex> lock(checkpoint_mutex_);
      snapshots_[{grouping, epoch}] =
          Taken{read, std::move(position), std::move(state), std::move(letters), watermark == window::kEndOfTime};
      return Status::OK();
    };
    stages_[s].windowed.at(grouping)->TakeSnapshots(std::move(hook));
    return Status::OK();
  }

  // Stage `s`'s rows: its reads, and the grouped outputs of earlier stages (streaming, or whole).
  Result<std::vector<std::unique_ptr<Source>>> OpenInputs(size_t s) {
    std::vector<std::unique_ptr<Source>> sources;
    for (int id : plan_.stages[s].roots) {
      const Node& node = pipeline_.node(id);
      if (node.kind == NodeKind::kRead) {
        ASSIGN_OR_RETURN(auto source, OpenRead(node));
        sources.push_back(std::move(source));
      } else if (auto queue = queues_.find(id); queue != queues_.end()) {
        BatchQueue* q = queue->second.get();
        sources.push_back(std::make_unique<QueueSource>(node.name, node.schema, q, CommitsEpochs(s)));
      } else {
        std::lock_guard<std::mutex> lock(mutex_);
        sources.push_back(MakeBatchSource(node.name, node.schema, grouped_outputs_.at(id)));
      }
    }
    return sources;
  }

  Status RunOneStage(size_t s) {
    const Stage& stage = plan_.stages[s];
    StageRun& run = stages_[s];
    std::map<int, SideInputs> sides;
    {
      std::lock_guard<std::mutex> lock(mutex_);  // side_values_ grows as other stages end
      for (int id : stage.steps) {
        for (const auto& [name, side] : pipeline_.node(id).side_inputs) sides[id].Set(name, side_values_.at(side));
      }
    }
    ASSIGN_OR_RETURN(auto sources, OpenInputs(s));
    std::vector<Source*> inputs;
    for (size_t k = 0; k < stage.roots.size(); ++k) {
      inputs.push_back(sources[k].get());
      const Node& node = pipeline_.node(stage.roots[k]);
      if (node.kind != NodeKind::kRead) continue;
      {
        // Kept to the run's end, whatever the stage's: told when the run committed, and when checkpoints are durable.
        std::lock_guard<std::mutex> lock(mutex_);
        read_sources_.emplace_back(stage.roots[k], std::move(sources[k]));
      }
      RETURN_NOT_OK(CheckpointRead(s, node, inputs.back()));
    }
    StageResources resources;
    resources.pipeline = &pipeline_;
    resources.stage = &stage;
    resources.stage_number = static_cast<int>(s + 1);
    resources.side_inputs = &sides;
    resources.consumer_sinks = run.consumer_sinks;
    resources.kept_sinks = run.kept_sinks;
    resources.output_sinks = run.output_sinks;
    resources.windowed = run.windowed;
    resources.dead_letters = &letters_;
    resources.metrics = metrics_;
    const auto epoch_files = epoch_files_.find(s);
    resources.run_files = epoch_files != epoch_files_.end() ? epoch_files->second.get() : &files_;
    PipelineStageProgram program(resources);
    StageOptions stage_options;
    stage_options.max_in_flight = options_.max_in_flight;
    stage_options.also_stop = run.stop.token();
    StageMetrics& stage_metrics = metrics_->stage(s);
    stage_options.progress = &stage_metrics.progress;
    stage_metrics.running = true;
    const auto start = std::chrono::steady_clock::now();
    auto stats = RunStage(context_, inputs, run.sinks, &program, stage_options);
    // An unbounded run's epochs: each committed when it ends, the next read into fresh writes.
    while (stats.ok() && CommitsEpochs(s) && static_cast<QueueSource*>(inputs[0])->ended_epoch()) {
      RETURN_NOT_OK(CommitEpoch(s));
      stats = RunStage(context_, inputs, run.sinks, &program, stage_options);
    }
    stage_metrics.running = false;
    stage_metrics.wall_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
    RETURN_NOT_OK(stats.status());
    std::map<int, std::shared_ptr<const SideInputValue>> values;
    std::map<int, std::shared_ptr<const Batches>> outputs;
    std::vector<int> streamed;
    for (auto& [id, state] : run.grouped) {
      if (links_.streamed.count(id) != 0) {
        streamed.push_back(id);
        continue;
      }
      auto whole = std::make_shared<Batches>();
      RETURN_NOT_OK(TakeGrouped(s, id, nullptr, whole.get()));
      state.reset();
      auto value = std::make_shared<SideInputValue>();
      value->schema = pipeline_.node(id).schema;
      value->batches = *whole;
      values[id] = std::move(value);
      outputs[id] = std::move(whole);
    }
    for (auto& [id, collected] : run.kept) {
      auto value = std::make_shared<SideInputValue>();
      value->schema = pipeline_.node(id).schema;
      value->batches = collected->TakeBatches();
      values[id] = std::move(value);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    side_values_.merge(values);
    grouped_outputs_.merge(outputs);
    for (int id : streamed) drains_.emplace_back([this, s, id] { Stream(s, id); });
    stage_metrics.done = true;
    return Status::OK();
  }

  // Streams grouped node `id` (a consumer of stage `s`, which read all its input) into the queue
  // of the stage reading it, then closes the queue with how it ended.
  void Stream(size_t s, int id) {
    BatchQueue* queue = queues_.at(id).get();
    const Status st = TakeGrouped(s, id, queue, nullptr);
    queue->Close(st);
    metrics_->step(id).queue_high_water.store(static_cast<int64_t>(queue->high_water()), std::memory_order_relaxed);
    stages_[s].grouped.at(id).reset();
    if (st.ok()) return;
    std::lock_guard<std::mutex> lock(mutex_);
    StageEnded(s, st);
  }

  // The output of grouped node `id` (a consumer of stage `s`), batch by batch into `queue` or
  // appended to `whole`, until its end, an error (naming the step) or a stop of the run or of
  // stage `s`. Once the reader of `queue` stopped, the output is still made to its end: an error
  // making it is then the run's error, as in a run of one stage after the other.
  Status TakeGrouped(size_t s, int id, BatchQueue* queue, Batches* whole) {
    const Node& node = pipeline_.node(id);
    GroupedState& state = *stages_[s].grouped.at(id);
    const StopToken stop = stages_[s].stop.token();
    int64_t rows = 0;
    while (true) {
      RETURN_NOT_OK(context_.stop_token.Poll());
      RETURN_NOT_OK(stop.Poll());
      auto next = state.NextOutput(options_.group_batch_rows);
      if (!next.ok()) return pipeline_.StepStatus(node.name, next.status());
      std::shared_ptr<RecordBatch> batch = std::move(next).ValueUnsafe();
      if (batch == nullptr) return Status::OK();
      rows += batch->num_rows();
      metrics_->step(id).rows_out.store(rows, std::memory_order_relaxed);
      if (whole != nullptr) {
        whole->push_back(std::move(batch));
      } else {
        (void)queue->Push(std::move(batch));
      }
    }
  }

  const ExecContext& context_;
  const Pipeline& pipeline_;
  const Plan& plan_;
  const RunOptions& options_;
  std::map<int, Sink*> outputs_;  // the caller's sinks by the node they take the rows of
  RunMetrics* metrics_;
  const StageLinks links_;
  DeadLetters letters_;
  std::vector<std::pair<int, std::unique_ptr<dataset::DatasetSink>>> sinks_;  // committed at the end
  std::vector<std::pair<int, std::unique_ptr<Sink>>> other_sinks_;  // the writes' sinks that are not datasets (WriteTo)
  std::vector<std::pair<int, std::unique_ptr<Source>>> read_sources_;  // by read node: told when the run committed
  RunFiles files_;  // the side files and the files steps write per row, committed after the datasets
  std::map<size_t, std::unique_ptr<RunFiles>> epoch_files_;  // per stage committing epochs: its per-row files
  std::vector<StageRun> stages_;                                            // per stage of the plan
  // Epochs and checkpoints apply: the pipeline is unbounded, or a checkpointed run reads a broker (acknowledged reads;
  // without a checkpoint such a run commits once, at its end, and then acknowledges).
  const bool unbounded_;
  std::optional<Checkpoint> resume_;  // the checkpoint this run resumes from (a drained one's NextGeneration)
  bool next_generation_ = false;      // resume_ starts a generation: the checkpoint read was a drained run's
  int64_t generation_ = 0;            // the run's generation (docs/streaming.md, "Generations")
  // Per checkpointed write (entries made when the stages open; each changed only by the thread committing its
  // epochs, its count under checkpoint_mutex_): its current epoch, and whether it is past the epochs the restart
  // found committed.
  std::map<int, int64_t> epochs_;
  std::map<int, bool> past_restart_;
  // A windowed grouping's snapshot at an epoch's end, waiting for the epoch's commit: its read, the read's position
  // then and the state's bytes.
  struct Taken {
    std::string read;
    std::vector<std::string> position;
    std::shared_ptr<Buffer> state;
    std::map<std::string, int64_t> letters;  // the lengths of the read's stage's dead-letter files then, durable
    bool drained = false;                    // taken at the end of time: every window fired
  };
  std::mutex checkpoint_mutex_;  // guards the counts of epochs_, what follows and the checkpoint's files
  std::chrono::steady_clock::time_point last_checkpoint_ = std::chrono::steady_clock::now();  // a snapshot was due
  std::map<std::pair<int, int64_t>, Taken> snapshots_;  // by windowed grouping and epoch of this run (1 for the first)
  // Per checkpointed read by name: its node and source (kept in read_sources_), told when a checkpoint is durable.
  std::map<std::string, std::pair<int, CheckpointedSource*>> checkpointed_reads_;
  std::map<size_t, int64_t> stage_epochs_;              // per stage committing epochs: its epochs so far in this run
  Checkpoint saved_;                                     // the last checkpoint written (or resumed from)
  std::map<std::string, bool> drained_;                  // per grouping in saved_.states: its state is at the end of time
  int64_t states_written_ = 0;                           // state files this run wrote
  const std::string run_tag_ = fmt::format("{:x}", std::chrono::steady_clock::now().time_since_epoch().count() & 0xffffffffff);
  std::map<int, std::unique_ptr<BatchQueue>> queues_;                       // per streamed grouped node
  std::mutex mutex_;                                                        // guards what follows
  std::condition_variable changed_;                                         // a stage became ready or failed
  std::map<int, std::shared_ptr<const Batches>> grouped_outputs_;           // per grouped node kept whole
  std::map<int, std::shared_ptr<const SideInputValue>> side_values_;        // per side-input node
  std::vector<std::thread> drains_;                                         // one per streamed grouped output
  Status error_;                                                            // of the earliest failing stage
  size_t error_stage_ = 0;
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
  RETURN_NOT_OK(CheckTaskSteps(pipeline, options));
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
