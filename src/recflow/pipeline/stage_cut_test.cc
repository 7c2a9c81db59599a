// Tests of a plan's stages cut into pipelines of their own (CheckStage, CutStage) and of the exchange's partition step
// (MakeKeyPartitionFn): a grouping run as one map cut, its exchange and one reduce cut per partition equals the whole run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/pretty_print.h"
#include "recflow/columnar/take.h"
#include "recflow/dataset/io_specs.h"
#include "recflow/formats/batch_source.h"
#include "recflow/pipeline/collect_sink.h"
#include "recflow/pipeline/combiner.h"
#include "recflow/pipeline/key_partition.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/pipeline_test_util.h"
#include "recflow/pipeline/stage_cut.h"

namespace recflow::pipeline {
namespace {

namespace fs = std::filesystem;
using Batches = std::vector<std::shared_ptr<RecordBatch>>;

// `type name` = the value of the Result `expr`, or the test fails naming its error.
#define ASSIGN_OR_FAIL(type, name, expr)                                   \
  auto name##_result = (expr);                                             \
  ASSERT_TRUE(name##_result.ok()) << name##_result.status().ToString();    \
  type name = std::move(name##_result).ValueUnsafe()

SchemaPtr RowSchema() {
  return Schema::Make({Field::Make("key", utf8()), Field::Make("value", int64(), false)});
}

// `rows` rows in batches of 37: key "k<i % 11>" (null for i % 13 == 5), value i.
Batches Rows(int64_t rows) {
  Batches batches;
  for (int64_t first = 0; first < rows; first += 37) {
    BinaryBuilder keys(utf8());
    Int64Builder values;
    const int64_t end = std::min(rows, first + 37);
    for (int64_t i = first; i < end; ++i) {
      EXPECT_TRUE((i % 13 == 5 ? keys.AppendNull() : keys.Append("k" + std::to_string(i % 11))).ok());
      EXPECT_TRUE(values.Append(i).ok());
    }
    batches.push_back(*RecordBatch::Make(RowSchema(), end - first, {*keys.Finish(), *values.Finish()}));
  }
  return batches;
}

// Each row of `batches` as text, sorted: a grouping's rows whatever the order of its groups.
std::vector<std::string> RowTexts(const Batches& batches) {
  std::vector<std::string> rows;
  for (const auto& batch : batches) {
    for (int64_t row = 0; row < batch->num_rows(); ++row) {
      std::string text;
      for (int c = 0; c < batch->num_columns(); ++c) {
        const std::vector<int64_t> one{row};
        text += ArrayToString(**Take(*batch->column_data(c), one)) + " ";
      }
      rows.push_back(text);
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

class StageCutTest : public testing::TempDirTest {};

TEST_F(StageCutTest, RowsOfOneKeyShareOnePartitionWithinRange) {
  Pipeline p;
  const PCollection numbered =
      p.ParDo("numbered", p.Create("rows", RowSchema(), Rows(500)), MakeKeyPartitionFn({"key"}, 4));
  ASSERT_TRUE(p.status().ok()) << p.status().ToString();
  EXPECT_EQ(numbered.schema()->field(2)->name(), kKeyPartitionColumn);
  CollectSink sink;
  RunOptions options = RunOptions::Defaults();
  options.outputs["numbered"] = &sink;
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), p, options, nullptr).ok());
  std::map<std::string, int64_t> partition_of;
  std::vector<int64_t> used(4, 0);
  for (const auto& batch : sink.TakeBatches()) {
    for (int64_t row = 0; row < batch->num_rows(); ++row) {
      const std::string key = IsValidAt(*batch->column_data(0), row)
                                  ? std::string(BinaryValue(*batch->column_data(0), row)) : "<null>";
      const int64_t partition = IntegerValue(*batch->column_data(2), row);
      ASSERT_GE(partition, 0);
      ASSERT_LT(partition, 4);
      EXPECT_EQ(partition_of.try_emplace(key, partition).first->second, partition) << key;
      ++used[static_cast<size_t>(partition)];
    }
  }
  EXPECT_EQ(partition_of.size(), 12u);  // 11 keys and the null key
  EXPECT_EQ(std::count(used.begin(), used.end(), 0), 0) << "12 keys left a partition of 4 empty";
}

TEST_F(StageCutTest, ThePartitionStepRefusesItsOwnColumnAndNoPartitions) {
  Pipeline p;
  const PCollection numbered = p.ParDo("numbered", p.Create("rows", RowSchema(), {}), MakeKeyPartitionFn({"key"}, 2));
  p.ParDo("again", numbered, MakeKeyPartitionFn({"key"}, 2));
  EXPECT_NE(p.status().message().find("already have a column recflow_partition"), std::string::npos)
      << p.status().ToString();
  Pipeline q;
  q.ParDo("none", q.Create("rows", RowSchema(), {}), MakeKeyPartitionFn({"key"}, 0));
  EXPECT_NE(q.status().message().find("at least one partition"), std::string::npos) << q.status().ToString();
}

TEST_F(StageCutTest, AGroupingCutIntoAMapAndOneReducePerPartitionEqualsTheWholeRun) {
  const auto rows = std::make_shared<const Batches>(Rows(700));
  Pipeline p;
  const PCollection groups = p.GroupByKey("groups", p.Create("rows", RowSchema(), *rows), {"key"});
  dataset::SinkOptions write = testing::FeatherSink(dir_ / "out");
  write.mode = dataset::SaveMode::kOverwrite;
  p.Write("write", groups, write);
  ASSERT_TRUE(p.status().ok()) << p.status().ToString();
  CollectSink whole;
  RunOptions whole_options = RunOptions::Defaults();
  whole_options.outputs["groups"] = &whole;
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), p, whole_options, nullptr).ok());
  const std::vector<std::string> expected = RowTexts(whole.TakeBatches());
  ASSERT_EQ(expected.size(), 12u);

  ASSIGN_OR_FAIL(Plan, plan, MakePlan(p));
  ASSERT_EQ(plan.stages.size(), 2u);
  ASSIGN_OR_FAIL(StageShape, map, CheckStage(p, plan.stages[0]));
  EXPECT_EQ(map.groupings, std::vector<int>{groups.node()});
  EXPECT_TRUE(map.writes.empty());
  StageCutOptions map_options;
  map_options.input = [rows](const std::shared_ptr<FileSystem>&) -> Result<std::unique_ptr<Source>> {
    return MakeBatchSource("split", RowSchema(), rows);
  };
  dataset::SinkOptions exchange = testing::FeatherSink(dir_ / "exchange");
  exchange.partition_by = {kKeyPartitionColumn};
  map_options.exchanges[groups.node()] = exchange;
  map_options.partitions = 3;
  ASSIGN_OR_FAIL(StageCut, map_cut, CutStage(p, plan.stages[0], map, map_options));
  std::vector<std::string> names;
  for (const Node& node : map_cut.pipeline->nodes()) names.push_back(node.name);
  EXPECT_EQ(names, (std::vector<std::string>{"rows", "groups.partition", "groups.exchange"}));
  EXPECT_EQ(map_cut.origin, (std::vector<int>{0, -1, -1}));
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), *map_cut.pipeline, RunOptions::Defaults(), nullptr).ok());

  ASSIGN_OR_FAIL(StageShape, reduce, CheckStage(p, plan.stages[1]));
  EXPECT_EQ(reduce.roots, std::vector<int>{groups.node()});
  dataset::InputSpec arrow_spec;
  arrow_spec.from = "arrow";
  ASSIGN_OR_FAIL(dataset::InputOptions, arrow, dataset::MakeInputOptions(arrow_spec, LocalFileSystem::Instance()));
  std::vector<std::string> got;
  for (int partition = 0; partition < 3; ++partition) {
    std::vector<std::string> files;
    const fs::path part = dir_ / "exchange" / ("recflow_partition=" + std::to_string(partition));
    for (const auto& entry : fs::directory_iterator(part)) files.push_back(entry.path().string());
    ASSERT_FALSE(files.empty()) << part;
    StageCutOptions reduce_options;
    reduce_options.grouped[groups.node()] = InputsFactory(files, arrow);
    ASSIGN_OR_FAIL(StageCut, reduce_cut, CutStage(p, plan.stages[1], reduce, reduce_options));
    EXPECT_EQ(reduce_cut.origin, (std::vector<int>{-1, groups.node(), 2}));
    CollectSink sink;
    RunOptions options = RunOptions::Defaults();
    options.outputs["groups"] = &sink;
    ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), *reduce_cut.pipeline, options, nullptr).ok());
    for (std::string& row : RowTexts(sink.TakeBatches())) got.push_back(std::move(row));
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);  // each group once, its values in input order
}

TEST_F(StageCutTest, AGlobalCombineRowComesFromTheTaskGivenItsInputOnlyAndAWindowedStepIsRefusedByName) {
  Pipeline p;
  const PCollection overall = p.CombineGlobally("overall", p.Create("rows", RowSchema(), Rows(10)),
                                                {Aggregate{"", *BuiltinCombiner("count_all"), "rows"}});
  dataset::SinkOptions write = testing::FeatherSink(dir_ / "out");
  write.mode = dataset::SaveMode::kOverwrite;  // each task's cut commits its own
  p.Write("write", overall, write);
  ASSIGN_OR_FAIL(Plan, plan, MakePlan(p));
  ASSIGN_OR_FAIL(StageShape, reduce, CheckStage(p, plan.stages[1]));
  // Task 0, given an empty partition (a null input): the combine's one row, over nothing.
  StageCutOptions first;
  first.grouped[overall.node()] = nullptr;
  ASSIGN_OR_FAIL(StageCut, cut, CutStage(p, plan.stages[1], reduce, first));
  CollectSink rows;
  RunOptions options = RunOptions::Defaults();
  options.outputs["overall"] = &rows;
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), *cut.pipeline, options, nullptr).ok());
  const Batches one = rows.TakeBatches();
  ASSERT_EQ(one.size(), 1u);
  ASSERT_EQ(one[0]->num_rows(), 1);
  EXPECT_EQ(IntegerValue(*one[0]->column_data(0), 0), 0);
  // Any other task, not given the combine's input: no row.
  ASSIGN_OR_FAIL(StageCut, other, CutStage(p, plan.stages[1], reduce, StageCutOptions{}));
  CollectSink none;
  options.outputs["overall"] = &none;
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), *other.pipeline, options, nullptr).ok());
  int64_t count = 0;
  for (const auto& batch : none.TakeBatches()) count += batch->num_rows();
  EXPECT_EQ(count, 0);

  Pipeline w;
  Windowing windowing;
  windowing.strategy.window_fn = window::WindowFn::Fixed(1000);
  windowing.event_time = "value";
  w.Write("write", w.GroupByKey("groups", w.Window("hourly", w.Create("rows", RowSchema(), {}), windowing), {"key"}),
          testing::FeatherSink(dir_ / "windowed"));
  ASSERT_TRUE(w.status().ok()) << w.status().ToString();
  ASSIGN_OR_FAIL(Plan, windowed, MakePlan(w));
  const Result<StageShape> refused = CheckStage(w, windowed.stages[0]);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("step 'hourly' (pardo) is windowed"), std::string::npos)
      << refused.status().ToString();
}

}  // namespace
}  // namespace recflow::pipeline
