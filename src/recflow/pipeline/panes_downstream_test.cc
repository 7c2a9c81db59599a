// Fired panes leave a windowed grouping while its stage still reads: the next stage sees them before the input's end,
// in firing order, and a windowed GroupByKey holds only the input batches of open windows.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "recflow/columnar/builder.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/plan.h"
#include "recflow/pipeline/stage_links.h"
#include "recflow/pipeline/pipeline_test_util.h"

namespace recflow::pipeline {
namespace {

using testing::Latch;

SchemaPtr EventSchema() {
  return Schema::Make({Field::Make("key", int64(), false), Field::Make("value", int64(), false),
                       Field::Make("ts", int64(), false)});
}

// Events i = 0, 1, ... at event time 10·i ms, key i % 3, value i: `units` units of `per_unit` events, each followed by
// the watermark at its last event (the events are in order). Batches are made when a unit is decoded (from the run's
// pool). With `gate`, NextUnit of unit `block_at` waits until the gate opens and fails after the hang bound.
class EventSource final : public Source {
 public:
  EventSource(int64_t units, int64_t per_unit, Latch* gate = nullptr, int64_t block_at = -1)
      : units_(units), per_unit_(per_unit), gate_(gate), block_at_(block_at) {}
  const SchemaPtr& schema() const override { return schema_; }
  const std::string& name() const override { return name_; }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    if (next_ >= units_) return std::unique_ptr<SourceUnit>();
    if (next_ == block_at_ && !gate_->Wait()) {
      return Status::Internal("no pane reached the next stage while the grouping's input was still read");
    }
    return std::unique_ptr<SourceUnit>(std::make_unique<Unit>(next_++ * per_unit_, per_unit_, schema_));
  }

 private:
  class Unit final : public SourceUnit {
   public:
    Unit(int64_t first, int64_t count, SchemaPtr schema) : first_(first), count_(count), schema_(std::move(schema)) {}
    Result<DecodedUnit> Decode() override {
      Int64Builder key, value, ts;
      for (int64_t i = first_; i < first_ + count_; ++i) {
        RETURN_NOT_OK(key.Append(i % 3));
        RETURN_NOT_OK(value.Append(i));
        RETURN_NOT_OK(ts.Append(10 * i));
      }
      ASSIGN_OR_RETURN(auto k, key.Finish());
      ASSIGN_OR_RETURN(auto v, value.Finish());
      ASSIGN_OR_RETURN(auto t, ts.Finish());
      ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(schema_, count_, {k, v, t}));
      return DecodedUnit{std::move(batch), {}, count_};
    }
    int64_t input_bytes() const override { return 0; }
    std::optional<FlowToken> token() const override {
      return FlowToken{FlowToken::Kind::kWatermark, 10 * (first_ + count_ - 1)};
    }

   private:
    int64_t first_;
    int64_t count_;
    SchemaPtr schema_;
  };

  SchemaPtr schema_ = EventSchema();
  std::string name_ = "events";
  int64_t units_;
  int64_t per_unit_;
  Latch* gate_;
  int64_t block_at_;
  int64_t next_ = 0;
};

// The caller's output of the grouping: counts rows and their window_start order, keeps no batch, opens `first` at
// the first row; logs rows and tokens when asked.
class PaneCounter final : public testing::InOrderBatchSink {
 public:
  explicit PaneCounter(Latch* first = nullptr) : first_(first) {}
  Status MergeBatch(const RecordBatch& batch) override {
    const int64_t* starts = batch.column_data(batch.schema()->GetFieldIndex("window_start"))->GetValues<int64_t>(1);
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      if (starts[i] < last_start_) out_of_order_ = true;
      last_start_ = starts[i];
    }
    if (logging_) {
      for (int64_t i = 0; i < batch.num_rows(); ++i) log_.push_back("p" + std::to_string(starts[i]));
    }
    rows_ += batch.num_rows();
    if (rows_ > 0 && first_ != nullptr) first_->Open();
    return Status::OK();
  }
  Status OnToken(const FlowToken& token) override {
    if (logging_) log_.push_back((token.kind == FlowToken::Kind::kWatermark ? "t" : "c") + std::to_string(token.time));
    return Status::OK();
  }
  /// From now on, logs each row's window start ("p0") and each token ("t500" a watermark, "c7" the clock).
  void Log() { logging_ = true; }
  const std::vector<std::string>& log() const { return log_; }
  int64_t rows() const { return rows_; }
  bool out_of_order() const { return out_of_order_; }

 private:
  Latch* first_;
  bool logging_ = false;
  std::vector<std::string> log_;
  int64_t rows_ = 0;
  int64_t last_start_ = INT64_MIN;
  bool out_of_order_ = false;
};

// Key 0, value and event time `ts` per element: each unit a bundle of elements followed by a token.
class ScriptSource final : public Source {
 public:
  struct Step {
    std::vector<int64_t> times;
    FlowToken token;
  };
  explicit ScriptSource(std::vector<Step> steps) : steps_(std::move(steps)) {}
  const SchemaPtr& schema() const override { return schema_; }
  const std::string& name() const override { return name_; }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    if (next_ >= steps_.size()) return std::unique_ptr<SourceUnit>();
    const Step& step = steps_[next_++];
    Int64Builder key, value, ts;
    for (int64_t t : step.times) {
      RETURN_NOT_OK(key.Append(0));
      RETURN_NOT_OK(value.Append(t));
      RETURN_NOT_OK(ts.Append(t));
    }
    ASSIGN_OR_RETURN(auto k, key.Finish());
    ASSIGN_OR_RETURN(auto v, value.Finish());
    ASSIGN_OR_RETURN(auto t, ts.Finish());
    ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(schema_, static_cast<int64_t>(step.times.size()), {k, v, t}));
    return MakeBatchUnit(std::move(batch), 0, step.token);
  }

 private:
  SchemaPtr schema_ = EventSchema();
  std::string name_ = "script";
  std::vector<Step> steps_;
  size_t next_ = 0;
};

Windowing FixedSecond() {
  return Windowing{window::WindowingStrategy{window::WindowFn::Fixed(1000), {}, {}, 0, {}}, "ts", false};
}

TEST(PanesDownstreamTest, TheNextStageSeesPanesBeforeTheInputEnds) {
  for (bool group : {false, true}) {
    for (int threads : {1, 2, 4}) {
      Latch first_pane;
      Pipeline p;
      // 20 000 events, 200 one-second windows per key; the source stops after 5 000 events until a pane arrived.
      auto events = p.ReadOpened("events", std::make_unique<EventSource>(40, 500, &first_pane, 10), nullptr);
      auto windowed = p.Window("window", events, FixedSecond());
      PCollection out = group ? p.GroupByKey("panes", windowed, {"key"})
                              : p.CombinePerKey("panes", windowed, {"key"}, {Aggregate{"", *BuiltinCombiner("count_all"), "n"}});
      ASSERT_TRUE(p.status().ok()) << p.status().ToString();
      PaneCounter counter(&first_pane);
      RunOptions options = RunOptions::Defaults();
      options.outputs["panes"] = &counter;
      ExecContext context;
      context.threads = threads;
      auto result = RunPipeline(context, p, options, nullptr);
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      EXPECT_EQ(counter.rows(), 200 * 3) << threads;
      EXPECT_FALSE(counter.out_of_order()) << "panes arrive in firing order";
    }
  }
}

TEST(PanesDownstreamTest, AWindowedGroupByKeyHoldsTheInputOfOpenWindowsOnly) {
  // 400 000 events (9.6 MB of columns) in 4 000 windows per key; a window's rows span at most two units.
  MemoryPool pool;
  Pipeline p;
  auto events = p.ReadOpened("events", std::make_unique<EventSource>(800, 500), nullptr);
  auto grouped = p.GroupByKey("panes", p.Window("window", events, FixedSecond()), {"key"});
  ASSERT_TRUE(p.status().ok()) << p.status().ToString();
  PaneCounter counter;
  RunOptions options = RunOptions::Defaults();
  options.outputs["panes"] = &counter;
  ExecContext context;
  context.threads = 2;
  context.memory_pool = &pool;
  auto result = RunPipeline(context, p, options, nullptr);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(counter.rows(), 4000 * 3);
  (void)grouped;
  // Units in flight (6 of 12 KB), the queue (4 batches of panes), a few held batches: well under the input's size,
  // which the grouping held whole when panes left at the input's end.
  EXPECT_LT(pool.peak_bytes(), 2 * 1024 * 1024) << "peak " << pool.peak_bytes();
}

// What the stage reading a windowed combine of ScriptSource's steps sees: its panes and tokens, in order.
std::vector<std::string> Downstream(window::TimestampCombiner combiner, std::vector<ScriptSource::Step> steps) {
  Pipeline p;
  Windowing windowing = FixedSecond();
  windowing.strategy.timestamp_combiner = combiner;
  auto events = p.ReadOpened("events", std::make_unique<ScriptSource>(std::move(steps)), nullptr);
  p.CombinePerKey("panes", p.Window("window", events, windowing), {"key"}, {Aggregate{"", *BuiltinCombiner("count_all"), "n"}});
  EXPECT_TRUE(p.status().ok()) << p.status().ToString();
  PaneCounter log;
  log.Log();
  RunOptions options = RunOptions::Defaults();
  options.outputs["panes"] = &log;
  ExecContext context;
  context.threads = 2;
  auto result = RunPipeline(context, p, options, nullptr);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return log.log();
}

TEST(PanesDownstreamTest, TheOutputWatermarkFollowsThePanesHeldBackByThePanesStillToFire) {
  constexpr auto kWatermark = FlowToken::Kind::kWatermark;
  const std::vector<ScriptSource::Step> steps = {
      {{100}, {kWatermark, 500}},    // [0, 1 s) holds one element at 100 ms
      {{1200}, {kWatermark, 1500}},  // [0, 1 s) fires; [1 s, 2 s) holds one at 1 200 ms
      {{}, {kWatermark, 2500}},      // [1 s, 2 s) fires; nothing holds
      {{}, {kWatermark, 2500}},      // no move: nothing passed on
      {{}, {FlowToken::Kind::kProcessingTime, 7}},
  };
  // Pane timestamps at the earliest element: each pending pane holds the output watermark at its timestamp.
  EXPECT_EQ(Downstream(window::TimestampCombiner::kEarliest, steps),
            (std::vector<std::string>{"t100", "p0", "t1200", "p1000", "t2500", "c7"}));
  // At the end of the window, which the input watermark has not passed: the input watermark passes.
  EXPECT_EQ(Downstream(window::TimestampCombiner::kEndOfWindow, steps),
            (std::vector<std::string>{"t500", "p0", "t1500", "p1000", "t2500", "c7"}));
}

using PanesDownstreamDirTest = testing::TempDirTest;

TEST_F(PanesDownstreamDirTest, PanesWaitForTheStageEndWhenTheReaderWaitsForItAndTheRunEnds) {
  // Both stages write dead letters, so the reading stage starts when the grouping's stage has ended: panes going
  // early would fill the one-batch queue with nobody reading it.
  const ErrorPolicy letters{ErrorPolicy::Mode::kDeadLetter, (dir_ / "late.jsonl").string()};
  Pipeline p;
  auto events = p.ReadOpened("events", std::make_unique<EventSource>(40, 500), nullptr);
  auto counts = p.CombinePerKey("panes", p.Window("window", events, FixedSecond()), {"key"},
                                {Aggregate{"", *BuiltinCombiner("count_all"), "n"}}, letters);
  auto kept = p.Filter("keep", counts, [](const RowView&) -> Result<bool> { return true; }, StepOptions{letters, {}, ""});
  ASSERT_TRUE(p.status().ok()) << p.status().ToString();
  auto plan = MakePlan(p, {kept.node()});
  ASSERT_TRUE(plan.ok());
  const StageLinks links = LinkStages(p, *plan);
  EXPECT_FALSE(PanesGoLive(links, *plan, p, counts.node()));
  PaneCounter counter;
  RunOptions options = RunOptions::Defaults();
  options.outputs["keep"] = &counter;
  options.queue_batches = 1;
  options.group_batch_rows = 1;
  ExecContext context;
  context.threads = 2;
  auto result = RunPipeline(context, p, options, nullptr);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(counter.rows(), 200 * 3);
}

TEST(PanesGoLiveTest, OnlyTheFirstGroupedInputOfAStageThatDoesNotWaitForItsMaker) {
  Pipeline p;
  auto windowed = p.Window("window", p.ReadOpened("events", std::make_unique<EventSource>(1, 1), nullptr), FixedSecond());
  const std::vector<Aggregate> count{Aggregate{"", *BuiltinCombiner("count_all"), "n"}};
  auto first = p.CombinePerKey("first", windowed, {"key"}, count);
  auto second = p.CombinePerKey("second", windowed, {"key"}, count);
  auto both = p.Flatten("both", {first, second});
  ASSERT_TRUE(p.status().ok()) << p.status().ToString();
  auto plan = MakePlan(p, {both.node()});
  ASSERT_TRUE(plan.ok());
  const StageLinks links = LinkStages(p, *plan);
  EXPECT_TRUE(PanesGoLive(links, *plan, p, first.node()));
  EXPECT_FALSE(PanesGoLive(links, *plan, p, second.node()));  // read after `first` has ended
}

}  // namespace
}  // namespace recflow::pipeline
