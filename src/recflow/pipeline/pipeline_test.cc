// Pipeline tests: fused steps, GroupByKey and combines on skewed keys, side inputs over two passes, per-row error
// policies, plans, and output that does not depend on threads.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/element_access.h"
#include "recflow/core/fault_injecting_filesystem.h"
#include "recflow/core/memory_filesystem.h"
#include "recflow/dataset/dataset_schema.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/formats/batch_source.h"
#include "recflow/formats/source_test_util.h"
#include "recflow/pipeline/column_do_fn.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/pipeline_test_util.h"

namespace recflow::pipeline {
namespace {

namespace fs = std::filesystem;

// Batches of (id int64, key utf8, value float64) with `rows` rows in batches of `per_batch`;
// key k<i % 7> except that every third row is the hot key "hot" (skew); value = id / 2.
std::vector<std::shared_ptr<RecordBatch>> MakeRows(const SchemaPtr& schema, int64_t rows, int64_t per_batch) {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int64_t start = 0; start < rows; start += per_batch) {
    Int64Builder ids;
    BinaryBuilder keys(utf8());
    Float64Builder values;
    const int64_t end = std::min(rows, start + per_batch);
    for (int64_t i = start; i < end; ++i) {
      EXPECT_TRUE(ids.Append(i).ok());
      EXPECT_TRUE(keys.Append(i % 3 == 0 ? std::string("hot") : "k" + std::to_string(i % 7)).ok());
      EXPECT_TRUE((i % 11 == 5 ? values.AppendNull() : values.Append(static_cast<double>(i) / 2)).ok());
    }
    batches.push_back(*RecordBatch::Make(schema, end - start, {*ids.Finish(), *keys.Finish(), *values.Finish()}));
  }
  return batches;
}

SchemaPtr RowSchema() {
  return Schema::Make({Field::Make("id", int64(), false), Field::Make("key", utf8(), false), Field::Make("value", float64())});
}

// Every row of the dataset at `dir`, as one batch per unit.
std::vector<std::shared_ptr<RecordBatch>> ReadBack(const fs::path& dir) {
  auto source = dataset::OpenInputs({dir.string()}, dataset::InputOptions{});
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  auto units = testing::DecodeAllUnits(**source);
  EXPECT_TRUE(units.ok()) << units.status().ToString();
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (auto& unit : *units) batches.push_back(unit.batch);
  return batches;
}

int64_t Int(const RecordBatch& b, int c, int64_t i) { return IntegerValue(*b.column_data(c), i); }
std::string Str(const RecordBatch& b, int c, int64_t i) { return std::string(BinaryValue(*b.column_data(c), i)); }
double Dbl(const RecordBatch& b, int c, int64_t i) { return b.column_data(c)->GetValues<double>(1)[i]; }

using PipelineTest = testing::TempDirTest;
using testing::FeatherSink;

TEST_F(PipelineTest, FusedMapFilterFlatMapKeepOrderForAnyThreads) {
  for (int threads : {1, 2}) {
    Pipeline p;
    auto rows = p.Create("rows", RowSchema(), MakeRows(RowSchema(), 1000, 64));
    auto doubled = p.MapRows("double", rows, {Field::Make("twice", int64())}, [](const RowView& row, RowEmitter& out) {
      ASSIGN_OR_RETURN(RowValue id, row.Get("id"));
      out.Emit({std::get<int64_t>(id) * 2});
      return Status::OK();
    });
    auto even = p.Filter("keep multiples of 4", doubled, [](const RowView& row) -> Result<bool> {
      ASSIGN_OR_RETURN(RowValue twice, row.Get("twice"));
      return std::get<int64_t>(twice) % 4 == 0;
    });
    auto copies = p.MapRows("copies", even, {Field::Make("copy", int32())}, [](const RowView&, RowEmitter& out) {
      out.Emit({int64_t{0}});
      out.Emit({int64_t{1}});
      return Status::OK();
    });
    const fs::path out = dir_ / ("t" + std::to_string(threads));
    p.Write("write", copies, FeatherSink(out));
    ASSERT_TRUE(p.status().ok()) << p.status().ToString();
    ExecContext context;
    context.threads = threads;
    RunMetrics metrics;
    auto result = RunPipeline(context, p, RunOptions::Defaults(), &metrics);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    ASSERT_EQ(result->writes.size(), 1u);
    EXPECT_EQ(result->writes[0].second.records, 1000);
    int64_t expected_id = 0, copy = 0, seen = 0;
    for (const auto& batch : ReadBack(out)) {
      ASSERT_EQ(batch->schema()->field(3)->name(), "twice");
      for (int64_t i = 0; i < batch->num_rows(); ++i, ++seen) {
        EXPECT_EQ(Int(*batch, 0, i), expected_id);
        EXPECT_EQ(Int(*batch, 3, i), expected_id * 2);
        EXPECT_EQ(Int(*batch, 4, i), copy);
        if (++copy == 2) copy = 0, expected_id += 2;
      }
    }
    EXPECT_EQ(seen, 1000);
    EXPECT_EQ(metrics.step(1).rows_in.load(), 1000);
    EXPECT_EQ(metrics.step(2).rows_out.load(), 500);
    EXPECT_EQ(metrics.step(3).rows_out.load(), 1000);
    EXPECT_NE(metrics.Table().find("keep multiples of 4"), std::string::npos);
    EXPECT_NE(metrics.Json().find("\"rows_out\":1000"), std::string::npos) << metrics.Json();
  }
}

TEST_F(PipelineTest, GroupByKeyAndCombinesOnSkewedKeys) {
  const int64_t n = 5000;
  Pipeline p;
  auto rows = p.Create("rows", RowSchema(), MakeRows(RowSchema(), n, 100));
  auto grouped = p.GroupByKey("group", rows, {"key"});
  std::vector<Aggregate> aggregates;
  for (const char* name : {"count_all", "count", "sum", "mean", "min", "max"}) {
    aggregates.push_back(Aggregate{std::string(name) == "count_all" ? "" : "value", *BuiltinCombiner(name), name});
  }
  auto combined = p.CombinePerKey("combine", rows, {"key"}, aggregates);
  auto total = p.CombineGlobally("total", rows, {Aggregate{"id", *BuiltinCombiner("sum"), "ids"}});
  p.Write("write groups", grouped, FeatherSink(dir_ / "groups"));
  p.Write("write combined", combined, FeatherSink(dir_ / "combined"));
  p.Write("write total", total, FeatherSink(dir_ / "total"));
  RunOptions options;
  options.group_batch_rows = 3;  // several output batches
  auto result = RunPipeline(ExecContext::Defaults(), p, options, nullptr);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->stages, 2u);  // the groups are written in a second pass over the grouped rows

  // Expected per key: ids in order, and the aggregates of the non-null values.
  std::map<std::string, std::vector<int64_t>> ids;
  std::vector<std::string> order;
  for (int64_t i = 0; i < n; ++i) {
    const std::string key = i % 3 == 0 ? "hot" : "k" + std::to_string(i % 7);
    if (ids.count(key) == 0) order.push_back(key);
    ids[key].push_back(i);
  }
  size_t group = 0;
  for (const auto& batch : ReadBack(dir_ / "groups")) {
    for (int64_t i = 0; i < batch->num_rows(); ++i, ++group) {
      ASSERT_LT(group, order.size());
      EXPECT_EQ(Str(*batch, 0, i), order[group]);
      const ChildRange range = ListRange(*batch->column_data(1), i);
      const auto& expected = ids[order[group]];
      ASSERT_EQ(range.length, static_cast<int64_t>(expected.size()));
      for (int64_t k = 0; k < range.length; ++k) {
        EXPECT_EQ(IntegerValue(*batch->column_data(1)->children[0], range.start + k), expected[static_cast<size_t>(k)]);
      }
    }
  }
  EXPECT_EQ(group, order.size());
  group = 0;
  for (const auto& batch : ReadBack(dir_ / "combined")) {
    for (int64_t i = 0; i < batch->num_rows(); ++i, ++group) {
      const auto& members = ids[Str(*batch, 0, i)];
      int64_t count = 0;
      double sum = 0, lo = 1e300, hi = -1e300;
      for (int64_t id : members) {
        if (id % 11 == 5) continue;
        ++count;
        sum += static_cast<double>(id) / 2;
        lo = std::min(lo, static_cast<double>(id) / 2);
        hi = std::max(hi, static_cast<double>(id) / 2);
      }
      EXPECT_EQ(Int(*batch, 1, i), static_cast<int64_t>(members.size()));
      EXPECT_EQ(Int(*batch, 2, i), count);
      EXPECT_DOUBLE_EQ(Dbl(*batch, 3, i), sum);
      EXPECT_DOUBLE_EQ(Dbl(*batch, 4, i), sum / static_cast<double>(count));
      EXPECT_DOUBLE_EQ(Dbl(*batch, 5, i), lo);
      EXPECT_DOUBLE_EQ(Dbl(*batch, 6, i), hi);
    }
  }
  EXPECT_EQ(group, order.size());
  auto total_rows = ReadBack(dir_ / "total");
  ASSERT_EQ(total_rows.size(), 1u);
  EXPECT_EQ(Int(*total_rows[0], 0, 0), n * (n - 1) / 2);
}

TEST_F(PipelineTest, SideInputFromAFirstPassIsAppliedInASecondPass) {
  // A batch-level DoFn reading the side input.
  class Center final : public DoFn {
   public:
    Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override { return input; }
    Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext& ctx) const override {
      ASSIGN_OR_RETURN(auto stats, ctx.side_inputs().Singleton("stats"));
      const double mean = stats->column_data(0)->GetValues<double>(1)[0];
      Float64Builder values;
      for (int64_t i = 0; i < input.num_rows(); ++i) {
        ASSIGN_OR_RETURN(RowValue value, ReadRowValue(*input.column_data(2), i));
        RETURN_NOT_OK(std::holds_alternative<double>(value) ? values.Append(std::get<double>(value) - mean)
                                                            : values.AppendNull());
      }
      ASSIGN_OR_RETURN(auto column, values.Finish());
      auto columns = input.columns();
      columns[2] = column;
      ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(input.schema(), input.num_rows(), columns));
      return DoFnOutput{batch, {}};
    }
  };
  Pipeline q;
  auto q_rows = q.Create("rows", RowSchema(), MakeRows(RowSchema(), 300, 32));
  auto q_mean = q.CombineGlobally("mean", q_rows, {Aggregate{"value", *BuiltinCombiner("mean"), "mean"}});
  StepOptions q_options;
  q_options.side_inputs = {{"stats", q_mean}};
  auto q_centered = q.ParDo("center", q_rows, std::make_shared<Center>(), q_options);
  q.Write("write", q_centered, FeatherSink(dir_ / "centered"));
  auto plan = MakePlan(q);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  ASSERT_EQ(plan->stages.size(), 2u);
  EXPECT_NE(PlanToText(q, *plan).find("stage 2 of 2"), std::string::npos);
  EXPECT_NE(PlanToDot(q, *plan).find("style=dashed"), std::string::npos);
  auto result = RunPipeline(ExecContext::Defaults(), q, RunOptions::Defaults(), nullptr);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  double sum = 0;
  int64_t count = 0;
  for (const auto& batch : ReadBack(dir_ / "centered")) {
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      if (Int(*batch, 0, i) % 11 == 5) continue;
      sum += Dbl(*batch, 2, i);
      ++count;
    }
  }
  EXPECT_GT(count, 250);
  EXPECT_NEAR(sum, 0.0, 1e-9);
}

TEST_F(PipelineTest, AnAggregateOfColumnsAStepLeavesAloneRunsInTheSamePassAsEarlierFits) {
  // A column step that needs a first-pass fit and rewrites "value" only.
  const auto touch = MakeColumnDoFn({ColumnJob{"value", RowSchema()->field(2),
                                               [](const std::shared_ptr<ArrayData>& column, ProcessContext& ctx)
                                                   -> Result<std::shared_ptr<ArrayData>> {
                                                 RETURN_NOT_OK(ctx.side_inputs().Singleton("stats").status());
                                                 return column;
                                               }}});
  Pipeline p;
  auto rows = p.Create("rows", RowSchema(), MakeRows(RowSchema(), 300, 32));
  auto mean = p.CombineGlobally("mean", rows, {Aggregate{"value", *BuiltinCombiner("mean"), "mean"}});
  StepOptions options;
  options.side_inputs = {{"stats", mean}};
  auto touched = p.ParDo("touch", rows, touch, options);
  auto ids = p.CombineGlobally("ids", touched, {Aggregate{"id", *BuiltinCombiner("count"), "n"}});
  auto values = p.CombineGlobally("values", touched, {Aggregate{"value", *BuiltinCombiner("count"), "n"}});
  StepOptions skipping = options;
  skipping.on_error.mode = ErrorPolicy::Mode::kSkip;
  auto skipped = p.ParDo("touch_skipping", rows, touch, skipping);
  auto skipped_ids = p.CombinePerKey("skipped_ids", skipped, {"key"}, {Aggregate{"id", *BuiltinCombiner("count"), "n"}});
  ASSERT_TRUE(p.status().ok()) << p.status().ToString();
  EXPECT_EQ(p.node(ids.node()).inputs, std::vector<int>{rows.node()});          // "touch" leaves "id" alone
  EXPECT_EQ(p.node(values.node()).inputs, std::vector<int>{touched.node()});    // ... but writes "value"
  EXPECT_EQ(p.node(skipped_ids.node()).inputs, std::vector<int>{skipped.node()});  // may drop rows
  p.Write("write_ids", ids, FeatherSink(dir_ / "ids"));
  p.Write("write_values", values, FeatherSink(dir_ / "values"));
  p.Write("write_skipped", skipped_ids, FeatherSink(dir_ / "skipped"));
  auto plan = MakePlan(p);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  const std::string text = PlanToText(p, *plan);
  ASSERT_NE(text.find("stage 2 of"), std::string::npos) << text;
  EXPECT_LT(text.find("ids [combine_globally]"), text.find("stage 2 of")) << text;  // with the mean, in pass 1
  EXPECT_GT(text.find("values [combine_globally]"), text.find("stage 2 of")) << text;
  auto result = RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), nullptr);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(Int(*ReadBack(dir_ / "ids")[0], 0, 0), 300);
  EXPECT_EQ(Int(*ReadBack(dir_ / "values")[0], 0, 0), 300 - 27);  // i % 11 == 5 is null
}

TEST_F(PipelineTest, ADoFnWhoseOutputIsNotItsDeclaredSchemaFailsTheStep) {
  // Declares its input schema, returns the batch without its last column.
  class Liar final : public DoFn {
   public:
    Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override { return input; }
    Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext&) const override {
      ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(Schema::Make({input.schema()->field(0), input.schema()->field(1)}),
                                                     input.num_rows(), {input.column_data(0), input.column_data(1)}));
      return DoFnOutput{batch, {}};
    }
  };
  Pipeline p;
  auto rows = p.Create("rows", RowSchema(), MakeRows(RowSchema(), 10, 10));
  p.Write("write", p.ParDo("liar", rows, std::make_shared<Liar>()), FeatherSink(dir_ / "out"));
  auto result = RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), nullptr);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInternal);
  EXPECT_NE(result.status().ToString().find("step 'liar'"), std::string::npos) << result.status().ToString();
  EXPECT_NE(result.status().ToString().find("as its OutputSchema said"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "out" / "_SUCCESS"));
}

TEST_F(PipelineTest, AWriteGoesThroughTheRunsFileSystemAndAFailedWriteLeavesNothing) {
  auto memory = std::make_shared<MemoryFileSystem>();
  ASSERT_TRUE(memory->CreateDirectory("/data").ok());
  dataset::SinkOptions sink = FeatherSink("/data/out");
  sink.partition_by = {"key"};
  ExecContext in_memory = ExecContext::Defaults();
  in_memory.file_system = memory;
  Pipeline p;
  p.Write("write", p.Create("rows", RowSchema(), MakeRows(RowSchema(), 100, 25)), sink);
  ASSERT_TRUE(RunPipeline(in_memory, p, RunOptions::Defaults(), nullptr).ok());
  EXPECT_FALSE(fs::exists("/data/out")) << "the in-memory write touched the local disk";
  dataset::InputOptions read;
  read.settings.file_system = memory;
  auto source = dataset::OpenInputs({"/data/out"}, read);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  auto units = testing::DecodeAllUnits(**source);
  ASSERT_TRUE(units.ok()) << units.status().ToString();
  int64_t rows = 0;
  for (const auto& unit : *units) rows += unit.batch->num_rows();
  EXPECT_EQ(rows, 100);
  // The same job on a disk that fills up at its third write: the run fails, the output and the
  // directory beside it are as they were.
  auto full = std::make_shared<FaultInjectingFileSystem>(memory);
  full->FailNth(FsOperation::kWrite, 3, FsFault::kShort);
  dataset::SinkOptions overwrite = sink;
  overwrite.mode = dataset::SaveMode::kOverwrite;
  ExecContext filling = ExecContext::Defaults();
  filling.file_system = full;
  const auto before = *memory->ListFilesRecursively("/data");
  Pipeline q;
  q.Write("write", q.Create("rows", RowSchema(), MakeRows(RowSchema(), 100, 25)), overwrite);
  auto failed = RunPipeline(filling, q, RunOptions::Defaults(), nullptr);
  ASSERT_FALSE(failed.ok());
  EXPECT_TRUE(full->fired());
  EXPECT_NE(failed.status().ToString().find("No space left on device"), std::string::npos) << failed.status().ToString();
  EXPECT_EQ(*memory->ListFilesRecursively("/data"), before);
}

TEST_F(PipelineTest, SideFilesAreCommittedOnTheContextsFileSystem) {
  // The run writes the side file's staged name from the value it is made from and renames it
  // over the old file, both through ExecContext::file_system, so a rename that file system
  // refuses fails the run, leaves the old file as it was and removes the staged one.
  const std::string vocab = (dir_ / "words.vocab").string();
  std::ofstream(vocab) << "old\n";
  auto refusing = std::make_shared<FaultInjectingFileSystem>(LocalFileSystem::Instance());
  ExecContext context = ExecContext::Defaults();
  context.file_system = refusing;
  for (const bool refuse : {true, false}) {
    SCOPED_TRACE(refuse ? "refused" : "committed");
    if (refuse) refusing->FailNth(FsOperation::kRename, 1);
    const int64_t calls_before = refusing->calls();
    Pipeline p;
    PCollection rows = p.Create("rows", RowSchema(), MakeRows(RowSchema(), 10, 10));
    PCollection count = p.CombineGlobally("count", rows, {Aggregate{"", *BuiltinCombiner("count_all"), "n"}});
    StepOptions options;
    options.side_inputs = {{"count", count}};
    const auto pass =
        MakeColumnDoFn({ColumnJob{"value", RowSchema()->field(2),
                                  [](const std::shared_ptr<ArrayData>& column,
                                     ProcessContext&) -> Result<std::shared_ptr<ArrayData>> { return column; }}});
    p.Write("write", p.ParDo("passed", rows, pass, options), FeatherSink(dir_ / (refuse ? "refused" : "out")));
    const SideFileWriter write = [](const SideInputValue& value, FileSystem& fs, const std::string& path) {
      return fs.WriteSmallFile(path, "rows " + std::to_string(value.num_rows()) + "\n", false);
    };
    ASSERT_TRUE(p.AddSideFile(vocab, count, write).ok());
    auto result = RunPipeline(context, p, RunOptions::Defaults(), nullptr);
    EXPECT_GT(refusing->calls(), calls_before) << "the side file was not committed through the context's file system";
    std::ifstream in(vocab);
    const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_FALSE(fs::exists(StagedPath(vocab)));
    if (refuse) {
      ASSERT_FALSE(result.ok());
      EXPECT_TRUE(refusing->fired());
      EXPECT_EQ(content, "old\n");
    } else {
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      EXPECT_EQ(content, "rows 1\n");
    }
  }
}

TEST_F(PipelineTest, AnOutputRefusedAtCommitLeavesEveryOutputAsItWas) {
  // Another writer fills output "b" while the run is under way, so that its error-mode write
  // refuses at commit; output "a", sorted first, must not be committed either.
  class Intruder final : public DoFn {
   public:
    explicit Intruder(fs::path file) : file_(std::move(file)) {}
    Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override { return input; }
    Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext&) const override {
      fs::create_directories(file_.parent_path());
      std::ofstream(file_) << "someone else's";
      return DoFnOutput{std::make_shared<RecordBatch>(input), {}};
    }

   private:
    fs::path file_;
  };
  Pipeline p;
  auto rows = p.Create("rows", RowSchema(), MakeRows(RowSchema(), 10, 10));
  p.Write("write a", rows, FeatherSink(dir_ / "a"));
  p.Write("write b", p.ParDo("intrude", rows, std::make_shared<Intruder>(dir_ / "b" / "intruder")), FeatherSink(dir_ / "b"));
  auto result = RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), nullptr);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kAlreadyExists);
  EXPECT_NE(result.status().ToString().find("step 'write b'"), std::string::npos) << result.status().ToString();
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir_)) left.push_back(entry.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"b"}) << "output a was committed, or staging was left behind";
}

TEST_F(PipelineTest, AWriteRecordsItsSchemaAndReadersTypePartitionsByIt) {
  // A partition column of int32 comes back as the int32 the schema file records, not as
  // inference's int64.
  class Ids final : public DoFn {
   public:
    Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override {
      return Schema::Make({input->field(0), Field::Make("bucket", int32(), false)});
    }
    Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext& ctx) const override {
      Int32Builder buckets;
      for (int64_t i = 0; i < input.num_rows(); ++i) RETURN_NOT_OK(buckets.Append(static_cast<int32_t>(i % 3)));
      ASSIGN_OR_RETURN(auto column, buckets.Finish());
      ASSIGN_OR_RETURN(auto batch, RecordBatch::Make(ctx.output_schema(), input.num_rows(), {input.column_data(0), column}));
      return DoFnOutput{batch, {}};
    }
  };
  Pipeline p;
  auto rows = p.Create("rows", RowSchema(), MakeRows(RowSchema(), 30, 10));
  dataset::SinkOptions sink = FeatherSink(dir_ / "out");
  sink.partition_by = {"bucket"};
  p.Write("write", p.ParDo("ids", rows, std::make_shared<Ids>()), sink);
  auto result = RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), nullptr);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  auto recorded = dataset::ReadDatasetSchema(*LocalFileSystem::Instance(), (dir_ / "out").string());
  ASSERT_TRUE(recorded.ok() && recorded->has_value());
  EXPECT_EQ((*recorded)->partition_by, std::vector<std::string>{"bucket"});
  EXPECT_EQ((*recorded)->fields, (std::vector<dataset::RecordedField>{{"id", "int64", false}, {"bucket", "int32", false}}));
  const auto batches = ReadBack(dir_ / "out");
  ASSERT_FALSE(batches.empty());
  EXPECT_TRUE(batches[0]->schema()->field(1)->Equals(*Field::Make("bucket", int32(), false)))
      << batches[0]->schema()->ToString();
}

TEST_F(PipelineTest, TwoWritesToOneOutputAreRefused) {
  Pipeline p;
  auto rows = p.Create("rows", RowSchema(), MakeRows(RowSchema(), 10, 10));
  p.Write("first", rows, FeatherSink(dir_ / "out"));
  p.Write("second", rows, FeatherSink(dir_ / "." / "out"));
  auto result = RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), nullptr);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(result.status().message().find("steps 'first' and 'second' both write"), std::string::npos)
      << result.status().ToString();
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

// A row function that fails on ids divisible by 10.
Pipeline FailingPipeline(const fs::path& out, ErrorPolicy policy) {
  Pipeline p;
  auto rows = p.Create("rows", RowSchema(), MakeRows(RowSchema(), 100, 16));
  StepOptions options;
  options.on_error = std::move(policy);
  auto loaded = p.MapRows(
      "load", rows, {Field::Make("bytes", binary())},
      [](const RowView& row, RowEmitter& out) -> Status {
        ASSIGN_OR_RETURN(RowValue id, row.Get("id"));
        if (std::get<int64_t>(id) % 10 == 0) return Status::IOError("cannot open img" + std::to_string(std::get<int64_t>(id)));
        out.Emit({std::string("ok")});
        return Status::OK();
      },
      options);
  p.Write("write", loaded, FeatherSink(out));
  return p;
}

TEST_F(PipelineTest, RowErrorsFailSkipOrGoToTheDeadLetterFile) {
  {
    Pipeline p = FailingPipeline(dir_ / "fail", ErrorPolicy{});
    auto result = RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), nullptr);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.status().ToString().find("step 'load'"), std::string::npos) << result.status().ToString();
    EXPECT_NE(result.status().ToString().find("cannot open img0"), std::string::npos);
    EXPECT_EQ(result.status().context().record, 0);
    EXPECT_FALSE(fs::exists(dir_ / "fail" / "_SUCCESS"));
  }
  {
    Pipeline p = FailingPipeline(dir_ / "skip", ErrorPolicy{ErrorPolicy::Mode::kSkip, ""});
    RunMetrics metrics;
    auto result = RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), &metrics);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->writes[0].second.records, 90);
    EXPECT_EQ(metrics.step(1).skipped_rows.load(), 10);
  }
  {
    const fs::path letters = dir_ / "letters.jsonl";
    Pipeline p = FailingPipeline(dir_ / "dead", ErrorPolicy{ErrorPolicy::Mode::kDeadLetter, letters.string()});
    auto result = RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), nullptr);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(result->writes[0].second.records, 90);
    std::ifstream in(letters);
    std::string line;
    int64_t n = 0;
    while (std::getline(in, line)) {
      EXPECT_NE(line.find("\"step\":\"load\""), std::string::npos) << line;
      EXPECT_NE(line.find("\"record\":" + std::to_string(n * 10)), std::string::npos) << line;
      EXPECT_NE(line.find("cannot open img" + std::to_string(n * 10)), std::string::npos) << line;
      EXPECT_NE(line.find("\"row\":{\"id\":" + std::to_string(n * 10)), std::string::npos) << line;
      ++n;
    }
    EXPECT_EQ(n, 10);
  }
}

TEST_F(PipelineTest, ADoFnErrorNamesTheFailingRow) {
  // Fails the batch holding id 37, naming that row of the batch.
  class FailOn37 final : public DoFn {
   public:
    Result<SchemaPtr> OutputSchema(const SchemaPtr& input) const override { return input; }
    Result<DoFnOutput> Process(const RecordBatch& input, ProcessContext&) const override {
      for (int64_t i = 0; i < input.num_rows(); ++i) {
        if (Int(input, 0, i) == 37) return Status::DataError("cannot use id 37").WithRecord(i);
      }
      return DoFnOutput{std::make_shared<RecordBatch>(input), {}};
    }
  };
  Pipeline p;
  auto rows = p.Create("rows", RowSchema(), MakeRows(RowSchema(), 100, 16));
  // Dropping the even ids first makes the failing row's index in its batch differ from its input row.
  auto odd = p.Filter("odd", rows, [](const RowView& row) -> Result<bool> {
    ASSIGN_OR_RETURN(RowValue id, row.Get("id"));
    return std::get<int64_t>(id) % 2 == 1;
  });
  p.Write("write", p.ParDo("check", odd, std::make_shared<FailOn37>()), FeatherSink(dir_ / "out"));
  auto result = RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), nullptr);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().ToString().find("step 'check': cannot use id 37"), std::string::npos)
      << result.status().ToString();
  EXPECT_EQ(result.status().context().record, 37);
}

TEST_F(PipelineTest, AValueThatDoesNotFitItsColumnFailsItsRow) {
  Pipeline p;
  auto rows = p.Create("rows", RowSchema(), MakeRows(RowSchema(), 40, 16));
  auto small = p.MapRows("small", rows, {Field::Make("small", int8()), Field::Make("text", utf8())},
                         [](const RowView& row, RowEmitter& out) -> Status {
                           ASSIGN_OR_RETURN(RowValue id, row.Get("id"));
                           out.Emit({std::get<int64_t>(id) == 21 ? int64_t{1000} : std::get<int64_t>(id), std::string("t")});
                           return Status::OK();
                         });
  p.Write("write", small, FeatherSink(dir_ / "out"));
  auto result = RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), nullptr);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().ToString().find("out of range of int8"), std::string::npos) << result.status().ToString();
  EXPECT_EQ(result.status().context().record, 21);
  EXPECT_EQ(result.status().context().field, "small");
}

TEST(RowViewTest, BytesAreViewsOfTheColumn) {
  const auto batch = MakeRows(RowSchema(), 3, 3)[0];
  RunFiles files(LocalFileSystem::Instance(), StopToken());
  RowView row(*batch, 1, 0, &files);
  auto key = row.Bytes(1);
  ASSERT_TRUE(key.ok()) << key.status().ToString();
  EXPECT_EQ(*key, "k1");
  EXPECT_EQ(key->data(), BinaryValue(*batch->column_data(1), 1).data());
  EXPECT_FALSE(row.IsNull(1));
  EXPECT_EQ(row.Bytes(0).status().code(), StatusCode::kTypeError);
  EXPECT_EQ(row.Bytes(7).status().code(), StatusCode::kInvalidArgument);
}

TEST_F(PipelineTest, BuildErrorsNameTheStep) {
  Pipeline p;
  auto rows = p.Create("rows", RowSchema(), MakeRows(RowSchema(), 10, 10));
  auto grouped = p.GroupByKey("group", rows, {"nope"});
  EXPECT_EQ(grouped.node(), -1);
  EXPECT_NE(p.status().ToString().find("step 'group': no column 'nope' (columns: id, key, value)"), std::string::npos)
      << p.status().ToString();
  auto plan = MakePlan(p);
  EXPECT_FALSE(plan.ok());
  Pipeline q;
  q.Create("rows", RowSchema(), {});
  q.Create("rows", RowSchema(), {});
  EXPECT_NE(q.status().ToString().find("already named 'rows'"), std::string::npos);
  Pipeline nothing;
  nothing.Create("rows", RowSchema(), {});
  EXPECT_NE(MakePlan(nothing).status().ToString().find("writes nothing"), std::string::npos);
}

TEST_F(PipelineTest, APipelineThatNamesNoStepsReportsErrorsAsTheyCame) {
  for (const bool named : {true, false}) {
    SCOPED_TRACE(named);
    const std::string prefix = named ? "step 'write': " : "";
    // A build error (the write's layout) and a run error (its sink's Consume, naming the row).
    Pipeline built;
    built.set_steps_named_in_errors(named);
    dataset::SinkOptions unknown_column = FeatherSink(dir_ / "a");
    unknown_column.partition_by = {"nope"};
    built.Write("write", built.Create("rows", RowSchema(), MakeRows(RowSchema(), 10, 10)), unknown_column);
    EXPECT_EQ(built.status().message().rfind(prefix + "partition column 'nope'", 0), 0u) << built.status().ToString();
    Pipeline ran;
    ran.set_steps_named_in_errors(named);
    dataset::SinkOptions too_long = FeatherSink(dir_ / "b");
    too_long.partition_by = {"key"};
    const std::string key(3000, '/');
    BinaryBuilder keys(utf8());
    Int64Builder ids;
    Float64Builder values;
    ASSERT_TRUE(keys.Append(key).ok() && ids.Append(0).ok() && values.Append(1).ok());
    auto batch = *RecordBatch::Make(RowSchema(), 1, {*ids.Finish(), *keys.Finish(), *values.Finish()});
    ran.Write("write", ran.Create("rows", RowSchema(), {batch}), too_long);
    ASSERT_TRUE(ran.status().ok()) << ran.status().ToString();
    auto result = RunPipeline(ExecContext::Defaults(), ran, RunOptions::Defaults(), nullptr);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().message().rfind(prefix + "partition path for column 'key'", 0), 0u)
        << result.status().ToString();
    EXPECT_EQ(result.status().context().record, 0);
  }
}

TEST_F(PipelineTest, MetricsResetBeforeARunKeepTheirCountersWhereADisplayReadsThem) {
  Pipeline p;
  p.Write("write", p.Create("rows", RowSchema(), MakeRows(RowSchema(), 300, 32)), FeatherSink(dir_ / "out"));
  RunMetrics metrics;
  metrics.Reset(p, 1);
  const StageProgress* progress = &metrics.stage(0).progress;  // what convert's progress bar holds
  const StepMetrics* read = &metrics.step(0);
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), p, RunOptions::Defaults(), &metrics).ok());
  ASSERT_EQ(&metrics.stage(0).progress, progress);
  ASSERT_EQ(&metrics.step(0), read);
  EXPECT_EQ(progress->records.load(), 300);
  EXPECT_EQ(read->rows_out.load(), 300);
  metrics.Reset(p, 1);  // a second reset zeroes them in place
  EXPECT_EQ(progress->records.load(), 0);
  EXPECT_EQ(read->rows_out.load(), 0);
}

TEST_F(PipelineTest, ARunErrorNamesTheStepAndKeepsTheErrorsFileAndOffset) {
  Pipeline p;
  int opened = 0;
  auto rows = p.Read("read", [&](const std::shared_ptr<FileSystem>&) -> Result<std::unique_ptr<Source>> {
    using Batches = std::vector<std::shared_ptr<RecordBatch>>;
    if (opened++ == 0) return MakeBatchSource("rows", RowSchema(), std::make_shared<const Batches>());
    return Status::IOError("the input went away").WithFile("rows.csv").WithOffset(12);
  });
  dataset::SinkOptions write = FeatherSink(dir_ / "out");
  write.mode = dataset::SaveMode::kOverwrite;
  p.Write("write", rows, write);
  // The first run reads the source opened when the pipeline was built; the second opens it again.
  ASSERT_TRUE(RunPipeline(ExecContext(), p, RunOptions::Defaults(), nullptr).ok());
  auto result = RunPipeline(ExecContext(), p, RunOptions::Defaults(), nullptr);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kIOError);
  EXPECT_EQ(result.status().message(), "step 'read': the input went away");
  EXPECT_EQ(result.status().context().file, "rows.csv");
  EXPECT_EQ(result.status().context().offset, 12);
}

}  // namespace
}  // namespace recflow::pipeline
