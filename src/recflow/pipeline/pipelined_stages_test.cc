// Pipelined stages: a grouped output streams into the stage reading it through a bounded queue, stages with no
// dependency overlap, outputs do not depend on threads or queue sizes, and errors and stops in the middle of
// overlapping stages end the run (the earliest stage's error first) without a deadlock.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <thread>

#include "recflow/columnar/builder.h"
#include "recflow/pipeline/batch_queue.h"
#include "recflow/pipeline/column_do_fn.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/pipeline_test_util.h"
#include "recflow/pipeline/stage_links.h"

namespace recflow::pipeline {
namespace {

namespace fs = std::filesystem;

using testing::Latch;

SchemaPtr KeyValueSchema() {
  return Schema::Make({Field::Make("key", int64(), false), Field::Make("value", int64(), false)});
}

// `rows` rows (key i % keys, value i) of `schema` (two int64 columns), `per_batch` rows a batch.
std::vector<std::shared_ptr<RecordBatch>> KeyValues(const SchemaPtr& schema, int64_t rows, int64_t keys,
                                                    int64_t per_batch) {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int64_t start = 0; start < rows; start += per_batch) {
    Int64Builder k, v;
    const int64_t end = std::min(rows, start + per_batch);
    for (int64_t i = start; i < end; ++i) {
      EXPECT_TRUE(k.Append(i % keys).ok());
      EXPECT_TRUE(v.Append(i).ok());
    }
    batches.push_back(*RecordBatch::Make(schema, end - start, {*k.Finish(), *v.Finish()}));
  }
  return batches;
}

Aggregate Sum() { return Aggregate{"value", *BuiltinCombiner("sum"), "value"}; }

// The schema of CombinePerKey(key; sum of value), so that rows made by hand can be flattened with it.
SchemaPtr SumSchema() {
  Pipeline scratch;
  auto rows = scratch.Create("rows", KeyValueSchema(), KeyValues(KeyValueSchema(), 1, 1, 1));
  return scratch.CombinePerKey("sum", rows, {"key"}, {Sum()}).schema();
}

int64_t Int(const RowView& row, std::string_view column) { return std::get<int64_t>(*row.Get(column)); }

// Every file under `dir` by relative path, with its bytes.
std::map<std::string, std::string> Files(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files[fs::relative(entry.path(), dir).string()] = std::string(std::istreambuf_iterator<char>(in), {});
  }
  return files;
}

using PipelinedStagesTest = testing::TempDirTest;

TEST_F(PipelinedStagesTest, TheStageReadingAGroupedOutputTakesItWhileItIsMadeWithinTheQueueBound) {
  constexpr int64_t kKeys = 200;
  for (int threads : {1, 2, 4}) {
    Pipeline p;
    auto rows = p.Create("rows", KeyValueSchema(), KeyValues(KeyValueSchema(), 2000, kKeys, 100));
    auto grouped = p.GroupByKey("group", rows, {"key"});
    RunMetrics metrics;
    std::atomic<int64_t> made_at_first_row{-1};
    auto seen = p.Filter("see", grouped, [&](const RowView&) -> Result<bool> {
      int64_t none = -1;
      made_at_first_row.compare_exchange_strong(none, metrics.step(grouped.node()).rows_out.load());
      return true;
    });
    p.Write("write", seen, testing::FeatherSink(dir_ / ("t" + std::to_string(threads))));
    ExecContext context;
    context.threads = threads;
    RunOptions options;
    options.group_batch_rows = 1;
    options.queue_batches = 2;
    options.max_in_flight = 2;
    auto result = RunPipeline(context, p, options, &metrics);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->writes[0].second.records, kKeys);
    EXPECT_EQ(metrics.step(grouped.node()).rows_out.load(), kKeys);
    // When the first grouped row reached the next stage, the grouping had made at most what the
    // queue and the reader's units in flight hold, plus the batch it was pushing: far from all.
    EXPECT_GE(made_at_first_row.load(), 1);
    EXPECT_LE(made_at_first_row.load(), options.queue_batches + options.max_in_flight + 1) << threads << " threads";
    EXPECT_GE(metrics.step(grouped.node()).queue_high_water.load(), 1);
    EXPECT_LE(metrics.step(grouped.node()).queue_high_water.load(), options.queue_batches);
  }
}

TEST_F(PipelinedStagesTest, OutputsAreByteIdenticalWhateverTheThreadsAndQueueSizes) {
  for (int64_t group_rows : {1, 7, 4096}) {
    std::map<std::string, std::string> reference;
    for (int threads : {1, 2, 8}) {
      for (int queue : {1, 64}) {
        Pipeline p;
        auto rows = p.Create("rows", KeyValueSchema(), KeyValues(KeyValueSchema(), 3000, 97, 64));
        auto grouped = p.GroupByKey("group", rows, {"key"});
        auto sums = p.CombinePerKey("sum", rows, {"key"}, {Sum()});
        auto odd = p.Filter("odd sums", sums, [](const RowView& row) -> Result<bool> { return Int(row, "value") % 2; });
        const fs::path out = dir_ / ("g" + std::to_string(group_rows) + "t" + std::to_string(threads) + "q" +
                                     std::to_string(queue));
        p.Write("write groups", grouped, testing::FeatherSink(out / "groups"));
        p.Write("write regrouped", p.GroupByKey("regroup", odd, {"value"}), testing::FeatherSink(out / "regrouped"));
        ExecContext context;
        context.threads = threads;
        RunOptions options;
        options.queue_batches = queue;
        options.group_batch_rows = group_rows;
        auto result = RunPipeline(context, p, options, nullptr);
        ASSERT_TRUE(result.ok()) << result.status().ToString();
        auto files = Files(out);
        ASSERT_GE(files.size(), 4u);  // each dataset has a data file and _SUCCESS
        if (reference.empty()) {
          reference = std::move(files);
        } else {
          EXPECT_TRUE(files == reference) << threads << " threads, queue " << queue << ", batches of " << group_rows;
        }
      }
    }
  }
}

TEST_F(PipelinedStagesTest, AStageWithNoDependencyOnAnotherRunsAtTheSameTimeAndItsErrorStopsTheOther) {
  // Stage 2 reads `early` and, streaming, the combine of stage 1: it starts with stage 1, which
  // waits until stage 2 saw a row (a run of one stage after the other would never get there),
  // then fails on its last row while stage 2 waits for the combine.
  for (int threads : {1, 2}) {
    Latch second_stage_saw_a_row;
    Pipeline p;
    auto early = p.Create("early", SumSchema(), KeyValues(SumSchema(), 10, 10, 5));
    auto rows = p.Create("rows", KeyValueSchema(), KeyValues(KeyValueSchema(), 1000, 10, 50));
    auto checked = p.Filter("fail late", rows, [&](const RowView& row) -> Result<bool> {
      if (Int(row, "value") == 0 && !second_stage_saw_a_row.Wait()) return Status::Internal("the stages did not overlap");
      if (Int(row, "value") == 999) return Status::DataError("late failure");
      return true;
    });
    auto sums = p.CombinePerKey("sum", checked, {"key"}, {Sum()});
    auto seen = p.Filter("see", p.Flatten("both", {early, sums}), [&](const RowView&) -> Result<bool> {
      second_stage_saw_a_row.Open();
      return true;
    });
    p.Write("write rows", checked, testing::FeatherSink(dir_ / "rows"));
    p.Write("write", seen, testing::FeatherSink(dir_ / "out"));
    ExecContext context;
    context.threads = threads;
    auto result = RunPipeline(context, p, RunOptions::Defaults(), nullptr);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), StatusCode::kDataError) << result.status().ToString();
    EXPECT_NE(result.status().message().find("step 'fail late'"), std::string::npos) << result.status().ToString();
    EXPECT_NE(result.status().message().find("late failure"), std::string::npos) << result.status().ToString();
    EXPECT_FALSE(fs::exists(dir_ / "rows"));
    EXPECT_FALSE(fs::exists(dir_ / "out"));
  }
}

TEST_F(PipelinedStagesTest, TheEarliestStagesErrorIsReportedEvenWhenALaterStageFailedFirst) {
  Latch later_stage_failed;
  Pipeline p;
  auto early = p.Create("early", SumSchema(), KeyValues(SumSchema(), 10, 10, 5));
  auto rows = p.Create("rows", KeyValueSchema(), KeyValues(KeyValueSchema(), 1000, 10, 50));
  auto checked = p.Filter("fail after", rows, [&](const RowView& row) -> Result<bool> {
    if (Int(row, "value") != 500) return true;
    if (!later_stage_failed.Wait()) return Status::Internal("the stages did not overlap");
    return Status::DataError("an earlier stage failing later");
  });
  auto sums = p.CombinePerKey("sum", checked, {"key"}, {Sum()});
  auto failing = p.Filter("fail first", p.Flatten("both", {early, sums}), [&](const RowView&) -> Result<bool> {
    later_stage_failed.Open();
    return Status::DataError("a later stage failing first");
  });
  p.Write("write", failing, testing::FeatherSink(dir_ / "out"));
  ExecContext context;
  context.threads = 2;
  auto result = RunPipeline(context, p, RunOptions::Defaults(), nullptr);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("step 'fail after'"), std::string::npos) << result.status().ToString();
  EXPECT_EQ(result.status().context().record, 500) << result.status().ToString();
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(PipelinedStagesTest, AnErrorInTheStageReadingAStreamedOutputEndsTheRunWithoutDeadlock) {
  for (int queue : {1, 3}) {
    Pipeline p;
    auto rows = p.Create("rows", KeyValueSchema(), KeyValues(KeyValueSchema(), 5000, 500, 100));
    auto grouped = p.GroupByKey("group", rows, {"key"});
    auto failing = p.Filter("fail in reader", grouped, [](const RowView& row) -> Result<bool> {
      if (Int(row, "key") == 250) return Status::DataError("bad group");
      return true;
    });
    p.Write("write rows", rows, testing::FeatherSink(dir_ / "rows"));
    p.Write("write", failing, testing::FeatherSink(dir_ / "out"));
    ExecContext context;
    context.threads = 2;
    RunOptions options;
    options.group_batch_rows = 1;  // 500 batches through a queue of `queue`: the producer is mid-way
    options.queue_batches = queue;
    auto result = RunPipeline(context, p, options, nullptr);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), StatusCode::kDataError) << result.status().ToString();
    EXPECT_NE(result.status().message().find("step 'fail in reader'"), std::string::npos) << result.status().ToString();
    EXPECT_EQ(result.status().context().record, 250) << result.status().ToString();
    EXPECT_FALSE(fs::exists(dir_ / "rows"));
    EXPECT_FALSE(fs::exists(dir_ / "out"));
  }
}

TEST_F(PipelinedStagesTest, AStopInTheMiddleOfOverlappingStagesCancelsTheRunAndLeavesNothing) {
  for (bool stop_in_reader : {true, false}) {
    StopSource stop;
    Latch reader_saw_a_row;
    Pipeline p;
    auto early = p.Create("early", SumSchema(), KeyValues(SumSchema(), 10, 10, 5));
    auto rows = p.Create("rows", KeyValueSchema(), KeyValues(KeyValueSchema(), 2000, 1000, 50));
    auto checked = p.Filter("producer", rows, [&](const RowView& row) -> Result<bool> {
      if (!stop_in_reader && Int(row, "value") == 700) {
        if (!reader_saw_a_row.Wait()) return Status::Internal("the stages did not overlap");
        stop.RequestStop();
      }
      return true;
    });
    auto sums = p.CombinePerKey("sum", checked, {"key"}, {Sum()});
    auto seen = p.Filter("reader", p.Flatten("both", {early, sums}), [&](const RowView& row) -> Result<bool> {
      reader_saw_a_row.Open();
      if (stop_in_reader && Int(row, "key") == 300) stop.RequestStop();  // mid-way through the streamed sums
      return true;
    });
    p.Write("write rows", checked, testing::FeatherSink(dir_ / "rows"));
    p.Write("write", seen, testing::FeatherSink(dir_ / "out"));
    ExecContext context;
    context.threads = 2;
    context.stop_token = stop.token();
    RunOptions options;
    options.group_batch_rows = 1;
    options.queue_batches = 1;
    auto result = RunPipeline(context, p, options, nullptr);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), StatusCode::kCancelled) << result.status().ToString();
    EXPECT_FALSE(fs::exists(dir_ / "rows"));
    EXPECT_FALSE(fs::exists(dir_ / "out"));
  }
}

TEST(StageLinksTest, OnlyAnOutputOneStageReadsAndNoStepTakesAsASideInputStreams) {
  Pipeline p;
  auto rows = p.Create("rows", KeyValueSchema(), KeyValues(KeyValueSchema(), 10, 2, 5));
  auto streamed = p.GroupByKey("streamed", rows, {"key"});
  auto total = p.CombineGlobally("total", rows, {Sum()});
  StepOptions with_side;
  with_side.side_inputs = {{"total", total}};
  auto scaled = p.ParDo("scaled", rows, MakeColumnDoFn({}), with_side);
  p.Write("write streamed", streamed, testing::FeatherSink("unused_a"));
  p.Write("write scaled", scaled, testing::FeatherSink("unused_b"));
  auto plan = MakePlan(p);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->stages.size(), 2u);
  const StageLinks links = LinkStages(p, *plan);
  EXPECT_EQ(links.streamed.size(), 1u);
  EXPECT_EQ(links.streamed.count(streamed.node()), 1u);
  EXPECT_EQ(links.producer.at(total.node()), 0u);
  EXPECT_EQ(links.waits_for[1], std::set<size_t>{0});  // the side input is complete before use
}

TEST(BatchQueueTest, HoldsAtMostItsCapacityAndPassesTheProducersErrorAfterItsBatches) {
  BatchQueue queue(3);
  const auto batches = KeyValues(KeyValueSchema(), 100, 10, 1);
  std::thread producer([&] {
    for (const auto& batch : batches) EXPECT_TRUE(queue.Push(batch));
    queue.Close(Status::IOError("producer failed"));
  });
  for (const auto& batch : batches) {
    auto popped = queue.Pop();
    ASSERT_TRUE(popped.ok());
    EXPECT_EQ(*popped, batch);
  }
  auto end = queue.Pop();
  EXPECT_EQ(end.status().message(), "producer failed");
  producer.join();
  EXPECT_LE(queue.high_water(), 3u);
  EXPECT_GE(queue.high_water(), 1u);
}

TEST(BatchQueueTest, AbandoningWakesABlockedProducerAndDropsWhatWaits) {
  BatchQueue queue(2);
  const auto batches = KeyValues(KeyValueSchema(), 10, 10, 1);
  std::atomic<int> pushed{0};
  std::thread producer([&] {
    for (const auto& batch : batches) {
      if (!queue.Push(batch)) return;
      ++pushed;
    }
  });
  queue.Abandon(Status::Cancelled("reader stopped"));
  producer.join();  // returns: a Push blocked on the full queue woke up
  EXPECT_LE(pushed.load(), 2);
  EXPECT_EQ(queue.Pop().status().code(), StatusCode::kCancelled);
}

}  // namespace
}  // namespace recflow::pipeline
