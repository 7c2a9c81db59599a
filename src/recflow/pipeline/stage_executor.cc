// StageExecutor: five tbb::parallel_pipeline filters feeding a stage's sinks, with in-order error reporting.
#include "recflow/pipeline/stage_executor.h"

#include <algorithm>
#include <mutex>
#include <new>
#include <optional>

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>

#include "recflow/formats/watermark.h"

namespace recflow::pipeline {

namespace {

// One unit's journey through the filters.
struct Token {
  std::unique_ptr<SourceUnit> unit;
  UnitInfo info;
  Status status;
  std::vector<SkippedRecord> skipped;
  int64_t input_records = 0;
  int64_t input_bytes = 0;
  std::unique_ptr<UnitState> state;
  std::vector<std::unique_ptr<SinkPartial>> partials;  // per sink; null: the unit fed it nothing
  std::optional<FlowToken> flow;                       // what follows the unit's records (SourceUnit::token)
  bool read_failed = false;  // `status` came from reading: its record counts from the file's start already
};

// A worker thread's local states of the stage's sinks, made on first use.
struct ThreadSinks {
  std::vector<std::unique_ptr<SinkLocalState>> locals;
  std::vector<bool> made;
};

// The stage state shared by the filters.
class Stage {
 public:
  Stage(const ExecContext& context, const StopToken& also_stop, const std::vector<Source*>& inputs, const std::vector<StageSink>& sinks,
        StageProgram* program, const StageOptions& options)
      : stop_token_(context.stop_token), drain_token_(context.drain_token), also_stop_(also_stop), inputs_(inputs), sinks_(sinks),
        program_(program), options_(options), watermarks_(inputs.size()) {}

  // Filter 1 (serial, in order): the next unit of the current input, or nullptr at the end
  // of the last input / after an error / once a stop is requested.
  Token* Read() {
    while (!stop_.load(std::memory_order_relaxed) && !read_done_ && input_ < inputs_.size()) {
      if (stop_token_.stop_requested() || also_stop_.stop_requested()) [[unlikely]] {
        Fail(stop_token_.stop_requested() ? stop_token_.Poll() : also_stop_.Poll());
        return nullptr;
      }
      // A drain ends an unbounded input here, as its own end would: the stage then drains its sinks.
      if (inputs_[input_]->unbounded() && drain_token_.stop_requested()) [[unlikely]] {
        ++input_;
        continue;
      }
      auto token = std::make_unique<Token>();
      auto unit = NextSourceUnit(*inputs_[input_]);
      if (!unit.ok()) {
        token->status = unit.status();
        token->read_failed = true;
        read_done_ = true;
      } else if (*unit == nullptr) {
        ++input_;
        continue;
      } else {
        token->unit = std::move(unit).ValueUnsafe();
        token->input_bytes = token->unit->input_bytes();
        token->flow = token->unit->token();
      }
      token->info.input = input_;
      token->info.index = units_++;
      token->info.file = inputs_[std::min(input_, inputs_.size() - 1)]->current_file();
      Count(&StageProgress::units_read);
      return token.release();
    }
    return nullptr;
  }

  // Filter 2 (parallel): decode the unit and run the program on it.
  Token* Process(Token* t) {
    Count(&StageProgress::units_started);
    if (!t->status.ok() || stop_.load(std::memory_order_relaxed)) return t;
    auto decoded = DecodeUnit(*t->unit);
    t->unit.reset();
    if (!decoded.ok()) {
      t->status = decoded.status();
      return t;
    }
    t->skipped = std::move(decoded->skipped);
    t->input_records = decoded->input_records;
    Result<std::unique_ptr<UnitState>> state = Status::Internal("not processed");
    t->partials.resize(sinks_.size());
    TokenFeed feed(this, t);
    try {
      state = program_->Process(t->info, std::move(decoded).ValueUnsafe(), feed);
    } catch (const std::bad_alloc&) {  // named by its file and records in Assign, like any unit error
      state = Status::OutOfMemory("out of memory running the stage's steps on " + std::to_string(t->input_records) +
                                  " records");
    }
    if (!state.ok()) {
      t->status = state.status();
    } else {
      t->state = std::move(state).ValueUnsafe();
    }
    return t;
  }

  // Filter 3 (serial, in order): rebase errors, report skipped records, let the program assign. Records are
  // numbered from the start of each file (an input may be a directory of files).
  Token* Assign(Token* t) {
    if (t->info.input != assigned_input_) {
      for (size_t ended = assigned_input_; ended < t->info.input && ended < inputs_.size(); ++ended) watermarks_.End(ended);
      assigned_input_ = t->info.input;
      records_ = 0;
    }
    if (t->info.file != assigned_file_) {
      assigned_file_ = t->info.file;
      records_ = 0;
    }
    t->info.first_record = records_;
    const Status status = t->read_failed ? t->status : t->status.RebaseRecord(records_);
    if (!Fail(status.WithFile(t->info.file))) {
      for (SkippedRecord& skipped : t->skipped) {
        skipped.error = skipped.error.RebaseRecord(records_);
        program_->OnSkipped(t->info.input, skipped);
      }
      stats_.skipped_records += static_cast<int64_t>(t->skipped.size());
      records_ += t->input_records;
      stats_.input_records += t->input_records;
      if (!Fail(program_->Assign(t->info, t->state.get()))) {
        for (size_t k = 0; k < sinks_.size() && !stop_.load(std::memory_order_relaxed); ++k) {
          if (t->partials[k] != nullptr) Fail(Named(k, InUnit(sinks_[k].sink->Merge(t->partials[k].get()), t->info)));
        }
        if (t->flow.has_value()) PassToken(t->info, *t->flow);
      }
    }
    t->skipped.clear();
    return t;
  }

  // Filter 4 (parallel): the sinks' heavy work (compression).
  Token* ProcessSinks(Token* t) {
    if (!stop_.load(std::memory_order_relaxed)) t->status = ProcessPartials(t->partials);
    return t;
  }

  // Filter 5 (serial, in order): the sinks emit; update progress.
  void Emit(Token* t) {
    std::unique_ptr<Token> owned(t);
    Count(&StageProgress::units_done);
    if (stop_.load(std::memory_order_relaxed)) return;
    if (Fail(t->status) || Fail(EmitPartials(t->partials))) return;
    stats_.input_bytes += t->input_bytes;
    if (options_.progress != nullptr) {
      options_.progress->input_bytes.store(stats_.input_bytes, std::memory_order_relaxed);
      options_.progress->records.store(stats_.input_records - stats_.skipped_records, std::memory_order_relaxed);
      options_.progress->skipped.store(stats_.skipped_records, std::memory_order_relaxed);
    }
  }

  // In order, after the Merges of the unit carrying it: a watermark of one input moves the stage's,
  // the minimum over its inputs, which is delivered when it moved; other tokens are delivered as they are.
  void PassToken(const UnitInfo& unit, const FlowToken& flow) {
    if (flow.kind != FlowToken::Kind::kWatermark) return DeliverToken(unit, flow);
    watermarks_.Advance(unit.input, flow.time);
    if (std::optional<int64_t> moved = watermarks_.Advanced()) {
      DeliverToken(unit, FlowToken{FlowToken::Kind::kWatermark, *moved});
    }
  }

  // `flow` to the program, then to every sink.
  void DeliverToken(const UnitInfo& unit, const FlowToken& flow) {
    if (Fail(program_->OnToken(unit, flow))) return;
    for (size_t k = 0; k < sinks_.size(); ++k) {
      if (Fail(Named(k, sinks_[k].sink->OnToken(flow)))) return;
    }
  }

  // Records `st` as the stage's error unless one came first; true when the stage is failing.
  bool Fail(const Status& st) {
    if (st.ok()) return stop_.load(std::memory_order_relaxed);
    std::lock_guard<std::mutex> lock(error_mutex_);
    if (error_.ok()) error_ = st;
    stop_.store(true, std::memory_order_relaxed);
    return true;
  }

  // After the last unit: what each sink still holds, processed and emitted in sink order.
  Status DrainSinks() {
    std::vector<std::unique_ptr<SinkPartial>> rest(sinks_.size());
    for (size_t k = 0; k < sinks_.size(); ++k) {
      auto drained = sinks_[k].sink->Drain();
      if (!drained.ok()) return Named(k, drained.status());
      rest[k] = std::move(drained).ValueUnsafe();
    }
    RETURN_NOT_OK(ProcessPartials(rest));
    return EmitPartials(rest);
  }

  const Status& error() const { return error_; }
  const StageStats& stats() const { return stats_; }

 private:
  // Feeds one token's partials from the program's Process.
  class TokenFeed final : public SinkFeed {
   public:
    TokenFeed(Stage* stage, Token* token) : stage_(stage), token_(token) {}
    Status Feed(size_t k, const std::shared_ptr<RecordBatch>& batch) override {
      ASSIGN_OR_RETURN(SinkLocalState * local, stage_->Local(k));
      ASSIGN_OR_RETURN(token_->partials[k], stage_->sinks_[k].sink->Consume(local, batch));
      return Status::OK();
    }

   private:
    Stage* stage_;
    Token* token_;
  };

  // This thread's local state of sink `k`.
  Result<SinkLocalState*> Local(size_t k) {
    ThreadSinks& mine = locals_.local();
    if (mine.made.empty()) {
      mine.locals.resize(sinks_.size());
      mine.made.assign(sinks_.size(), false);
    }
    if (!mine.made[k]) {
      ASSIGN_OR_RETURN(mine.locals[k], sinks_[k].sink->NewLocalState());
      mine.made[k] = true;
    }
    return mine.locals[k].get();
  }

  // A sink's error naming a record (as the sink counts them) with the file of the unit being
  // merged, unless it names one.
  static Status InUnit(const Status& st, const UnitInfo& unit) {
    return st.ok() || st.context().record < 0 ? st : st.WithFile(unit.file);
  }

  // Sink `k`'s error, naming its step.
  Status Named(size_t k, const Status& st) const {
    return st.ok() || sinks_[k].step.empty() ? st : st.WithPrefix("step '" + sinks_[k].step + "': ");
  }

  Status ProcessPartials(const std::vector<std::unique_ptr<SinkPartial>>& partials) const {
    for (size_t k = 0; k < partials.size(); ++k) {
      if (partials[k] != nullptr) RETURN_NOT_OK(Named(k, sinks_[k].sink->Process(partials[k].get())));
    }
    return Status::OK();
  }

  Status EmitPartials(const std::vector<std::unique_ptr<SinkPartial>>& partials) const {
    for (size_t k = 0; k < partials.size(); ++k) {
      if (partials[k] != nullptr) RETURN_NOT_OK(Named(k, sinks_[k].sink->Emit(partials[k].get())));
    }
    return Status::OK();
  }

  void Count(std::atomic<int64_t> StageProgress::*counter) {
    if (options_.progress != nullptr) (options_.progress->*counter).fetch_add(1, std::memory_order_relaxed);
  }

  const StopToken& stop_token_;
  const StopToken& drain_token_;
  const StopToken& also_stop_;
  const std::vector<Source*>& inputs_;
  const std::vector<StageSink>& sinks_;
  StageProgram* program_;
  const StageOptions& options_;
  std::atomic<bool> stop_{false};
  size_t input_ = 0;              // the input being read
  bool read_done_ = false;
  uint64_t units_ = 0;            // units read
  size_t assigned_input_ = 0;     // the input of the unit being assigned
  std::string assigned_file_;     // the file of the unit being assigned
  int64_t records_ = 0;           // that file's records before that unit
  MinWatermark watermarks_;       // per input: its watermark (inputs before the one assigned ended)
  std::mutex error_mutex_;
  Status error_;
  StageStats stats_;
  tbb::enumerable_thread_specific<ThreadSinks> locals_;
};

}  // namespace

Result<StageStats> RunStage(const ExecContext& context, const std::vector<Source*>& inputs,
                            const std::vector<StageSink>& sinks, StageProgram* program, const StageOptions& options) {
  const int threads = context.ResolvedThreads();
  const int in_flight = options.max_in_flight > 0 ? options.max_in_flight : 2 * threads + 2;
  Stage stage(context, options.also_stop, inputs, sinks, program, options);
  // The run's buffers come from its pool: on this thread, and on each worker for each unit it
  // takes (a filter may run on any thread of the arena).
  MemoryPool* pool = context.memory_pool;
  const ScopedMemoryPool caller_pool(pool);
  tbb::task_arena arena(threads);
  arena.execute([&] {
    using tbb::filter_mode;
    tbb::parallel_pipeline(
        static_cast<size_t>(in_flight),
        tbb::make_filter<void, Token*>(filter_mode::serial_in_order,
                                       [&](tbb::flow_control& fc) -> Token* {
                                         const ScopedMemoryPool unit_pool(pool);
                                         Token* t = stage.Read();
                                         if (t == nullptr) fc.stop();
                                         return t;
                                       }) &
            tbb::make_filter<Token*, Token*>(filter_mode::parallel,
                                             [&](Token* t) {
                                               const ScopedMemoryPool unit_pool(pool);
                                               return stage.Process(t);
                                             }) &
            tbb::make_filter<Token*, Token*>(filter_mode::serial_in_order,
                                             [&](Token* t) {
                                               const ScopedMemoryPool unit_pool(pool);
                                               return stage.Assign(t);
                                             }) &
            tbb::make_filter<Token*, Token*>(filter_mode::parallel,
                                             [&](Token* t) {
                                               const ScopedMemoryPool unit_pool(pool);
                                               return stage.ProcessSinks(t);
                                             }) &
            tbb::make_filter<Token*, void>(filter_mode::serial_in_order, [&](Token* t) {
              const ScopedMemoryPool unit_pool(pool);
              stage.Emit(t);
            }));
  });
  if (!stage.error().ok()) return stage.error();
  // A stop after the last unit was read (an input that ended because its writer was stopped too).
  RETURN_NOT_OK(context.stop_token.Poll());
  RETURN_NOT_OK(options.also_stop.Poll());
  Status drained;
  arena.execute([&] {
    const ScopedMemoryPool drain_pool(pool);
    drained = stage.DrainSinks();
  });
  RETURN_NOT_OK(drained);
  StageStats stats = stage.stats();
  stats.threads = threads;
  return stats;
}

}  // namespace recflow::pipeline
