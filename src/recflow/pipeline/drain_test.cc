// A drain (ExecContext::drain_token) ends a run's unbounded inputs as their end would: every open window fires and
// the run ends OK; a stop requested while it drains cancels the run.
#include <gtest/gtest.h>

#include <csignal>
#include <map>

#include "recflow/columnar/builder.h"
#include "recflow/formats/batch_source.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/pipeline_test_util.h"

namespace recflow::pipeline {
namespace {

SchemaPtr EventSchema() {
  return Schema::Make({Field::Make("key", int64(), false), Field::Make("ts", int64(), false)});
}

// An input with no end: unit u holds events i = 100·u ... 100·u + 99 at event time 10·i ms, key i % 3, then the
// watermark at its last event. While making unit `drain_at` it requests `drain`; it fails when asked for a unit
// after that one (the drain did not end it) rather than run forever.
class EndlessSource final : public Source {
 public:
  EndlessSource(StopSource drain, int64_t drain_at) : drain_(std::move(drain)), drain_at_(drain_at) {}
  const SchemaPtr& schema() const override { return schema_; }
  const std::string& name() const override { return name_; }
  bool unbounded() const override { return true; }
  Result<std::unique_ptr<SourceUnit>> NextUnit() override {
    if (next_ > drain_at_) return Status::Internal("asked for unit " + std::to_string(next_) + " after the drain");
    if (next_ == drain_at_) drain_.RequestStop(SIGTERM);
    Int64Builder key, ts;
    for (int64_t i = 100 * next_; i < 100 * (next_ + 1); ++i) {
      RETURN_NOT_OK(key.Append(i % 3));
      RETURN_NOT_OK(ts.Append(10 * i));
    }
    ASSIGN_OR_RETURN(auto k, key.Finish());
    ASSIGN_OR_RETURN(auto t, ts.Finish());
    ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(schema_, 100, {k, t}));
    const int64_t watermark = 10 * (100 * ++next_ - 1);
    return MakeBatchUnit(std::move(batch), 0, FlowToken{FlowToken::Kind::kWatermark, watermark});
  }

 private:
  SchemaPtr schema_ = EventSchema();
  std::string name_ = "endless";
  StopSource drain_;
  int64_t drain_at_;
  int64_t next_ = 0;
};

// The caller's output of a windowed count: the sum of the counts and the panes per window start; requests `stop`
// (when given) at the first pane of window `stop_at`.
class PaneTally final : public testing::InOrderBatchSink {
 public:
  explicit PaneTally(StopSource* stop = nullptr, int64_t stop_at = -1) : stop_(stop), stop_at_(stop_at) {}
  Status MergeBatch(const RecordBatch& batch) override {
    const int64_t* starts = batch.column_data(batch.schema()->GetFieldIndex("window_start"))->GetValues<int64_t>(1);
    const int64_t* counts = batch.column_data(batch.schema()->GetFieldIndex("n"))->GetValues<int64_t>(1);
    for (int64_t i = 0; i < batch.num_rows(); ++i) {
      ++panes_[starts[i]];
      events_ += counts[i];
      if (stop_ != nullptr && starts[i] == stop_at_) stop_->RequestStop(SIGINT);
    }
    return Status::OK();
  }
  const std::map<int64_t, int>& panes() const { return panes_; }
  int64_t events() const { return events_; }

 private:
  StopSource* stop_;
  int64_t stop_at_;
  std::map<int64_t, int> panes_;
  int64_t events_ = 0;
};

// Runs `source` → 1-second fixed windows → count per key into `tally` on `threads` threads.
Result<RunResult> RunCount(std::unique_ptr<Source> source, PaneTally* tally, const ExecContext& context) {
  Pipeline p;
  auto events = p.ReadOpened("events", std::move(source), nullptr);
  auto windowed = p.Window("window", events,
                           Windowing{window::WindowingStrategy{window::WindowFn::Fixed(1000), {}, {}, 0, {}}, "ts", false});
  p.CombinePerKey("panes", windowed, {"key"}, {Aggregate{"", *BuiltinCombiner("count_all"), "n"}});
  RETURN_NOT_OK(p.status());
  RunOptions options = RunOptions::Defaults();
  options.outputs["panes"] = tally;
  return RunPipeline(context, p, options, nullptr);
}

TEST(DrainTest, ADrainEndsAnUnboundedInputAndEveryOpenWindowFires) {
  for (int threads : {1, 3}) {
    StopSource drain;
    PaneTally tally;
    ExecContext context;
    context.threads = threads;
    context.drain_token = drain.token();
    // Units 0-7 are read: eight 1-second windows per key, the last one still open when the drain comes.
    auto result = RunCount(std::make_unique<EndlessSource>(drain, 7), &tally, context);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(tally.events(), 800) << threads;
    ASSERT_EQ(tally.panes().size(), 8u) << threads;
    for (const auto& [start, panes] : tally.panes()) EXPECT_EQ(panes, 3) << "window " << start << ", " << threads;
  }
}

TEST(DrainTest, AStopRequestedWhileTheRunDrainsCancelsIt) {
  StopSource drain;
  StopSource stop;
  // The stop comes with the first pane of [7 s, 8 s), which only the drain fires.
  PaneTally tally(&stop, 7000);
  ExecContext context;
  context.threads = 2;
  context.drain_token = drain.token();
  context.stop_token = stop.token();
  auto result = RunCount(std::make_unique<EndlessSource>(drain, 7), &tally, context);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kCancelled) << result.status().ToString();
  EXPECT_NE(result.status().message().find("SIGINT"), std::string::npos) << result.status().ToString();
}

TEST(DrainTest, ADrainLeavesABoundedInputToItsEnd) {
  // A bounded input of the same events ends by itself, whatever the drain says.
  StopSource drain;
  drain.RequestStop(SIGTERM);
  Int64Builder key, ts;
  for (int64_t i = 0; i < 300; ++i) {
    ASSERT_TRUE(key.Append(i % 3).ok());
    ASSERT_TRUE(ts.Append(10 * i).ok());
  }
  auto batch = RecordBatch::Make(EventSchema(), 300, {*key.Finish(), *ts.Finish()});
  ASSERT_TRUE(batch.ok());
  PaneTally tally;
  ExecContext context;
  context.drain_token = drain.token();
  auto batches = std::make_shared<const std::vector<std::shared_ptr<RecordBatch>>>(1, *batch);
  auto result = RunCount(MakeBatchSource("bounded", EventSchema(), batches), &tally, context);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(tally.events(), 300);
}

}  // namespace
}  // namespace recflow::pipeline
