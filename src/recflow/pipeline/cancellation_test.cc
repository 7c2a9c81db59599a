// Cancellation through the ExecContext's stop token: RunStage stops between units and drains, RunPipeline of a
// read → write pipeline (convert's) aborts its sink.
#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <sstream>

#include "recflow/columnar/builder.h"
#include "recflow/formats/batch_source.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/pipeline_test_util.h"
#include "recflow/pipeline/stage_executor.h"
#include "recflow/testing/testdata.h"

namespace recflow::pipeline {
namespace {

namespace fs = std::filesystem;

// A bound on a hang, not a timing: a stage that ignores its stop token never returns.
constexpr auto kHangBound = std::chrono::seconds(60);

SchemaPtr IdSchema() { return Schema::Make({Field::Make("id", int64(), false)}); }

// A batch of ids [first, first + rows).
std::shared_ptr<RecordBatch> Ids(int64_t first, int64_t rows) {
  Int64Builder ids;
  for (int64_t i = first; i < first + rows; ++i) EXPECT_TRUE(ids.Append(i).ok());
  return *RecordBatch::Make(IdSchema(), rows, {*ids.Finish()});
}

// Counts what a stage emits into it and whether it was drained.
class CountingSink final : public Sink {
 public:
  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState*, const std::shared_ptr<RecordBatch>&) const override {
    return std::make_unique<SinkPartial>();
  }
  Status Merge(SinkPartial*) override { return Status::OK(); }
  Status Emit(SinkPartial*) override {
    ++written_;
    return Status::OK();
  }
  Result<std::unique_ptr<SinkPartial>> Drain() override {
    drained_ = true;
    return std::unique_ptr<SinkPartial>();
  }
  int64_t written() const { return written_.load(); }
  bool drained() const { return drained_; }

 private:
  std::atomic<int64_t> written_{0};
  bool drained_ = false;
};

// Feeds every unit to its sink and remembers the highest unit index it saw at any step.
class CountingProgram final : public StageProgram {
 public:
  explicit CountingProgram(std::function<void(int64_t processed)> on_process = nullptr)
      : on_process_(std::move(on_process)) {}
  Result<std::unique_ptr<UnitState>> Process(const UnitInfo& unit, DecodedUnit decoded, SinkFeed& feed) override {
    See(unit.index);
    const int64_t processed = ++processed_;
    if (on_process_) on_process_(processed);
    RETURN_NOT_OK(feed.Feed(0, decoded.batch));
    return std::unique_ptr<UnitState>(std::make_unique<UnitState>());
  }
  Status Assign(const UnitInfo& unit, UnitState*) override {
    See(unit.index);
    return Status::OK();
  }
  void OnSkipped(size_t, const SkippedRecord&) override {}

  int64_t max_index() const { return max_index_.load(); }
  /// Where the stage's units end.
  CountingSink sink;

 private:
  void See(uint64_t index) {
    int64_t seen = max_index_.load();
    while (static_cast<int64_t>(index) > seen && !max_index_.compare_exchange_weak(seen, static_cast<int64_t>(index))) {
    }
  }
  std::function<void(int64_t)> on_process_;
  std::atomic<int64_t> processed_{0};
  std::atomic<int64_t> max_index_{-1};
};

TEST(RunStageCancelTest, AStopFromAnotherThreadMidStageDrainsAndReturnsCancelled) {
  StopSource stop;
  ExecContext context;
  context.threads = 2;
  context.stop_token = stop.token();
  std::atomic<int64_t> reads{0};
  // An input without end: only the stop ends the stage.
  auto source = MakeCallbackSource("endless", IdSchema(), [&]() -> Result<std::shared_ptr<RecordBatch>> {
    return Ids(100 * reads++, 100);
  });
  std::promise<void> underway;
  CountingProgram program([&](int64_t processed) {
    if (processed == 5) underway.set_value();
  });
  auto stage = std::async(std::launch::async, [&] {
    return RunStage(context, {source.get()}, {{&program.sink, "count"}}, &program, StageOptions());
  });
  ASSERT_EQ(underway.get_future().wait_for(kHangBound), std::future_status::ready);
  const int64_t read_before_stop = reads.load();
  ASSERT_TRUE(stop.RequestStop(SIGINT));
  ASSERT_EQ(stage.wait_for(kHangBound), std::future_status::ready) << "the stage did not stop";
  const Result<StageStats> stats = stage.get();
  ASSERT_FALSE(stats.ok());
  EXPECT_EQ(stats.status().code(), StatusCode::kCancelled);
  EXPECT_EQ(stats.status().message(), "interrupted by SIGINT");
  // At most the read under way when the stop came; nothing read after the check that saw it,
  // and no step ran on a unit read after that.
  EXPECT_LE(reads.load(), read_before_stop + 1);
  EXPECT_LE(program.max_index(), read_before_stop);
  EXPECT_LE(program.sink.written(), reads.load());
  EXPECT_FALSE(program.sink.drained()) << "a stopped stage does not drain its sinks";
  // Nothing runs after RunStage returned: the counters stay as they were.
  const int64_t max_index = program.max_index();
  const int64_t written = program.sink.written();
  EXPECT_EQ(program.max_index(), max_index);
  EXPECT_EQ(program.sink.written(), written);
}

TEST(RunStageCancelTest, AStopBeforeTheInputEndsCancelsTheStage) {
  // As when Ctrl-C stops both `producer | recflow convert -`: the input ends right after the
  // stop, and the stage must not take that end for a finished input.
  StopSource stop;
  ExecContext context;
  context.threads = 2;
  context.stop_token = stop.token();
  int calls = 0;
  auto source = MakeCallbackSource("stopped writer", IdSchema(), [&]() -> Result<std::shared_ptr<RecordBatch>> {
    if (++calls < 3) return Ids(0, 10);
    stop.RequestStop(SIGTERM);
    return nullptr;
  });
  CountingProgram program;
  const Result<StageStats> stats = RunStage(context, {source.get()}, {{&program.sink, "count"}}, &program, StageOptions());
  EXPECT_EQ(stats.status().code(), StatusCode::kCancelled);
  EXPECT_EQ(stats.status().message(), "interrupted by SIGTERM");
  EXPECT_FALSE(program.sink.drained());
}

TEST(RunStageCancelTest, AStoppedContextReadsNothing) {
  StopSource stop;
  stop.RequestStop();
  ExecContext context;
  context.stop_token = stop.token();
  int calls = 0;
  auto source = MakeCallbackSource("unread", IdSchema(), [&]() -> Result<std::shared_ptr<RecordBatch>> {
    ++calls;
    return nullptr;
  });
  CountingProgram program;
  const Result<StageStats> stats = RunStage(context, {source.get()}, {{&program.sink, "count"}}, &program, StageOptions());
  EXPECT_EQ(stats.status().code(), StatusCode::kCancelled);
  EXPECT_EQ(stats.status().message(), "cancelled");
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(program.max_index(), -1);
}

// Every path under `dir` (hidden ones too) with its bytes ("<dir>" for directories).
std::map<std::string, std::string> Tree(const fs::path& dir) {
  std::map<std::string, std::string> tree;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    std::string bytes = "<dir>";
    if (entry.is_regular_file()) {
      std::ifstream in(entry.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      bytes = text.str();
    }
    tree[fs::relative(entry.path(), dir).string()] = std::move(bytes);
  }
  return tree;
}

// A dataset of Arrow files at `output`, flushed every KiB so that staged bytes exist early.
dataset::SinkOptions ArrowOutput(const fs::path& output, dataset::SaveMode mode) {
  dataset::SinkOptions options = testing::FeatherSink(output);
  options.mode = mode;
  options.chunk_bytes = 1024;
  return options;
}

// Convert's pipeline: `source` read once, written to `output`.
std::unique_ptr<Pipeline> Convert(std::unique_ptr<Source> source, dataset::SinkOptions output) {
  auto p = std::make_unique<Pipeline>();
  p->Write("write", p->ReadOpened("read", std::move(source), nullptr), std::move(output));
  EXPECT_TRUE(p->status().ok()) << p->status().ToString();
  return p;
}

TEST(RunPipelineCancelTest, AStopMidConvertAbortsTheSinkAndLeavesEveryOutputAsItWas) {
  const testing::ScratchDir scratch;
  const fs::path& dir = scratch.path();
  const fs::path out = dir / "out";
  {  // The previous output.
    auto source = MakeBatchSource("old", IdSchema(),
                                  std::make_shared<const std::vector<std::shared_ptr<RecordBatch>>>(
                                      std::vector<std::shared_ptr<RecordBatch>>{Ids(0, 1500)}));
    auto job = Convert(std::move(source), ArrowOutput(out, dataset::SaveMode::kErrorIfExists));
    ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), *job, RunOptions::Defaults(), nullptr).ok());
  }
  const auto before = Tree(dir);
  ASSERT_GT(before.size(), 2u);
  const fs::path fresh = dir / "new" / "fresh";
  for (const auto& [output, mode] : {std::pair{out, dataset::SaveMode::kOverwrite},
                                     std::pair{fresh, dataset::SaveMode::kErrorIfExists}}) {
    SCOPED_TRACE(output.string());
    StopSource stop;
    ExecContext context;
    context.threads = 2;
    context.stop_token = stop.token();
    std::atomic<int64_t> reads{0};
    auto source = MakeCallbackSource("endless", IdSchema(), [&]() -> Result<std::shared_ptr<RecordBatch>> {
      return Ids(100 * reads++, 100);
    });
    auto pipeline = Convert(std::move(source), ArrowOutput(output, mode));
    RunMetrics metrics;
    metrics.Reset(*pipeline, 1);  // RunPipeline's reset keeps the counters read below
    const StageProgress& progress = metrics.stage(0).progress;
    auto job = std::async(std::launch::async,
                          [&] { return RunPipeline(context, *pipeline, RunOptions::Defaults(), &metrics); });
    // Once 30 units were written, shards are staged; then stop it from this thread.
    while (progress.units_done.load() < 30 && job.wait_for(std::chrono::milliseconds(1)) != std::future_status::ready) {
    }
    ASSERT_TRUE(stop.RequestStop(SIGTERM));
    ASSERT_EQ(job.wait_for(kHangBound), std::future_status::ready) << "the job did not stop";
    const Result<RunResult> stats = job.get();
    ASSERT_EQ(stats.status().code(), StatusCode::kCancelled) << stats.status().ToString();
    EXPECT_EQ(stats.status().message(), "interrupted by SIGTERM; removed the unfinished output of '" + output.string() +
                                            "'; what was there is unchanged");
    EXPECT_EQ(Tree(dir), before) << "nothing staged is left, the previous output is byte-identical";
  }
}

TEST(RunPipelineCancelTest, AStopAfterThePointOfNoReturnIsRefusedAndTheConvertCommits) {
  const testing::ScratchDir scratch;
  const fs::path& dir = scratch.path();
  StopSource stop;
  ExecContext context;
  context.stop_token = stop.token();
  auto source = MakeBatchSource("rows", IdSchema(),
                                std::make_shared<const std::vector<std::shared_ptr<RecordBatch>>>(
                                    std::vector<std::shared_ptr<RecordBatch>>{Ids(0, 10)}));
  auto job = Convert(std::move(source), ArrowOutput(dir / "out", dataset::SaveMode::kErrorIfExists));
  ASSERT_TRUE(RunPipeline(context, *job, RunOptions::Defaults(), nullptr).ok());
  EXPECT_FALSE(stop.RequestStop(SIGINT)) << "the termination handler must take its hard path now";
  EXPECT_TRUE(fs::exists(dir / "out" / "_SUCCESS"));
}

}  // namespace
}  // namespace recflow::pipeline
