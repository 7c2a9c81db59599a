// Tests of RunOptions::outputs: a step's rows fed to a sink the caller supplies, in order, whatever the threads.
#include <gtest/gtest.h>

#include <filesystem>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/element_access.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"
#include "recflow/formats/arrow_ipc/ipc_stream_sink.h"
#include "recflow/pipeline/collect_sink.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/pipeline_test_util.h"

namespace recflow::pipeline {
namespace {

namespace fs = std::filesystem;
using Batches = std::vector<std::shared_ptr<RecordBatch>>;

SchemaPtr RowSchema() { return Schema::Make({Field::Make("id", int64(), false), Field::Make("key", utf8(), false)}); }

// `rows` rows (id = 0, 1, ...; key "k" + id % 5) in batches of `per_batch`.
Batches MakeRows(int64_t rows, int64_t per_batch) {
  Batches batches;
  for (int64_t start = 0; start < rows; start += per_batch) {
    Int64Builder ids;
    BinaryBuilder keys(utf8());
    const int64_t end = std::min(rows, start + per_batch);
    for (int64_t i = start; i < end; ++i) {
      EXPECT_TRUE(ids.Append(i).ok());
      EXPECT_TRUE(keys.Append("k" + std::to_string(i % 5)).ok());
    }
    batches.push_back(*RecordBatch::Make(RowSchema(), end - start, {*ids.Finish(), *keys.Finish()}));
  }
  return batches;
}

// The ids of `batches`, in order.
std::vector<int64_t> Ids(const Batches& batches) {
  std::vector<int64_t> ids;
  for (const auto& b : batches) {
    for (int64_t i = 0; i < b->num_rows(); ++i) ids.push_back(IntegerValue(*b->column_data(0), i));
  }
  return ids;
}

// Keeps the rows (a CollectSink), counts Finish, Commit and Abort, and fails the Emit of its
// `fail_emit`-th partial (from 1; 0: never).
class RecordingSink final : public Sink {
 public:
  explicit RecordingSink(int fail_emit = 0) : fail_emit_(fail_emit) {}
  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState* local,
                                                const std::shared_ptr<RecordBatch>& batch) const override {
    return rows_.Consume(local, batch);
  }
  Status Merge(SinkPartial* partial) override { return rows_.Merge(partial); }
  Status Emit(SinkPartial*) override {
    return ++emits_ == fail_emit_ ? Status::IOError("the peer went away") : Status::OK();
  }
  Status Finish() override { return ++finishes, Status::OK(); }
  Status Commit() override { return ++commits, Status::OK(); }
  Status Abort() override { return ++aborts, Status::OK(); }
  Batches TakeBatches() { return rows_.TakeBatches(); }
  int finishes = 0, commits = 0, aborts = 0;

 private:
  CollectSink rows_;
  int fail_emit_;
  int emits_ = 0;
};

// rows → "multiples of 3" (a filter nothing else reads).
Pipeline FilterPipeline(int64_t rows) {
  Pipeline p;
  auto all = p.Create("rows", RowSchema(), MakeRows(rows, 64));
  p.Filter("multiples of 3", all, [](const RowView& row) -> Result<bool> {
    ASSIGN_OR_RETURN(RowValue id, row.Get("id"));
    return std::get<int64_t>(id) % 3 == 0;
  });
  return p;
}

TEST(OutputSinkTest, AStepNothingElseReadsFeedsTheCallersSinkInOrderOnAnyThreads) {
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < 5000; i += 3) expected.push_back(i);
  for (int threads : {1, 4}) {
    Pipeline p = FilterPipeline(5000);
    auto plan = MakePlan(p, {1});
    ASSERT_TRUE(plan.ok()) << plan.status().ToString();
    EXPECT_NE(PlanToText(p, *plan).find("outputs\n    multiples of 3"), std::string::npos) << PlanToText(p, *plan);
    RecordingSink sink;
    RunOptions options;
    options.outputs["multiples of 3"] = &sink;
    ExecContext context;
    context.threads = threads;
    RunMetrics metrics;
    auto result = RunPipeline(context, p, options, &metrics);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(Ids(sink.TakeBatches()), expected);
    EXPECT_EQ(sink.finishes, 1);
    EXPECT_EQ(sink.commits, 1);
    EXPECT_EQ(sink.aborts, 0);
    EXPECT_EQ(metrics.step(1).stage, 1);
  }
  // Without the output the pipeline consumes nothing.
  EXPECT_FALSE(RunPipeline(ExecContext::Defaults(), FilterPipeline(10), RunOptions::Defaults(), nullptr).ok());
}

TEST(OutputSinkTest, ACombinesRowsGoOutInTheStageAfterItBesideAWrite) {
  const fs::path dir = fs::temp_directory_path() / ("recflow_output_sink_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  Pipeline p;
  auto rows = p.Create("rows", RowSchema(), MakeRows(1000, 100));
  auto counts = p.CombinePerKey("counts", rows, {"key"}, {Aggregate{"", *BuiltinCombiner("count_all"), "n"}});
  p.Write("write rows", rows, testing::FeatherSink(dir));
  ASSERT_TRUE(p.status().ok()) << p.status().ToString();
  RecordingSink sink;
  RunOptions options;
  options.outputs["counts"] = &sink;
  auto result = RunPipeline(ExecContext::Defaults(), p, options, nullptr);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->stages, 2u);
  ASSERT_EQ(result->writes.size(), 1u);
  EXPECT_EQ(result->writes[0].second.records, 1000);
  int64_t total = 0, keys = 0;
  for (const auto& b : sink.TakeBatches()) {
    for (int64_t i = 0; i < b->num_rows(); ++i, ++keys) total += IntegerValue(*b->column_data(1), i);
  }
  EXPECT_EQ(keys, 5);
  EXPECT_EQ(total, 1000);
  EXPECT_EQ(sink.commits, 1);
  fs::remove_all(dir);
}

// The IPC stream of the multiples of 3 among 20000 rows, on `threads` threads.
std::string IpcOutput(int threads) {
  Pipeline p = FilterPipeline(20000);
  BufferOutputStream out;
  arrow_ipc::IpcStreamSinkOptions sink_options;
  sink_options.batch_rows = 1000;
  sink_options.ipc.compression = arrow_ipc::IpcWriteOptions::Compression::kZstd;
  auto sink = arrow_ipc::IpcStreamSink::Open(&out, p.node(1).schema, sink_options);
  EXPECT_TRUE(sink.ok()) << sink.status().ToString();
  RunOptions options;
  options.outputs["multiples of 3"] = sink->get();
  ExecContext context;
  context.threads = threads;
  auto result = RunPipeline(context, p, options, nullptr);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return std::string(out.Finish()->view());
}

TEST(OutputSinkTest, AnIpcStreamOutputIsTheSameBytesOnOneAndFourThreads) {
  const std::string one = IpcOutput(1);
  EXPECT_EQ(IpcOutput(4), one);
  auto reader = arrow_ipc::IpcStreamReader::Open(Buffer::FromString(one), "<output>");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  Batches batches;
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (*batch == nullptr) break;
    batches.push_back(*batch);
  }
  ASSERT_EQ(batches.size(), 7u);  // 6667 rows in batches of 1000
  EXPECT_EQ(batches.back()->num_rows(), 667);
  const std::vector<int64_t> ids = Ids(batches);
  for (size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(ids[i], static_cast<int64_t>(3 * i));
}

TEST(OutputSinkTest, AFailingOutputFailsTheRunNamingTheStepAndIsAborted) {
  for (int threads : {1, 4}) {
    RecordingSink sink(/*fail_emit=*/3);
    RunOptions options;
    options.outputs["multiples of 3"] = &sink;
    ExecContext context;
    context.threads = threads;
    auto result = RunPipeline(context, FilterPipeline(5000), options, nullptr);
    ASSERT_EQ(result.status().code(), StatusCode::kIOError) << result.status().ToString();
    EXPECT_NE(result.status().message().find("step 'multiples of 3'"), std::string::npos) << result.status().ToString();
    EXPECT_NE(result.status().message().find("the peer went away"), std::string::npos);
    EXPECT_EQ(sink.aborts, 1);
    EXPECT_EQ(sink.commits, 0);
  }
}

TEST(OutputSinkTest, AnUnknownStepAWriteAndANullSinkAreRefused) {
  RecordingSink sink;
  RunOptions options;
  options.outputs["nope"] = &sink;
  auto unknown = RunPipeline(ExecContext::Defaults(), FilterPipeline(10), options, nullptr);
  EXPECT_EQ(unknown.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(unknown.status().message().find("no step 'nope' to output (steps: rows, multiples of 3)"), std::string::npos)
      << unknown.status().ToString();
  options.outputs = {{"multiples of 3", nullptr}};
  EXPECT_EQ(RunPipeline(ExecContext::Defaults(), FilterPipeline(10), options, nullptr).status().code(),
            StatusCode::kInvalidArgument);
  Pipeline p = FilterPipeline(10);
  const dataset::SinkOptions write = testing::FeatherSink(fs::temp_directory_path() / "recflow_output_sink_never_written");
  p.Write("write", PCollection(&p, 1), write);
  ASSERT_TRUE(p.status().ok()) << p.status().ToString();
  options.outputs = {{"write", &sink}};
  auto refused = RunPipeline(ExecContext::Defaults(), p, options, nullptr);
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("step 'write' writes files and has no rows to send to an output"),
            std::string::npos)
      << refused.status().ToString();
  EXPECT_FALSE(fs::exists(write.output));
}

}  // namespace
}  // namespace recflow::pipeline
