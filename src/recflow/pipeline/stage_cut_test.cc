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
#include "recflow/pipeline/column_steps.h"
#include "recflow/pipeline/combiner.h"
#include "recflow/pipeline/fitted_combiners.h"
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

// Each row of `batches` as text, in order.
std::vector<std::string> RowTextsInOrder(const Batches& batches) {
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
  return rows;
}

// Each row of `batches` as text, sorted: a grouping's rows whatever the order of its groups.
std::vector<std::string> RowTexts(const Batches& batches) {
  std::vector<std::string> rows = RowTextsInOrder(batches);
  std::sort(rows.begin(), rows.end());
  return rows;
}

// The whole-pipeline node each node of `cut` counts towards.
std::vector<int> OriginNodes(const StageCut& cut) {
  std::vector<int> nodes;
  for (const CutOrigin& origin : cut.origin) nodes.push_back(origin.node);
  return nodes;
}

// A sum whose state has no columnar form, as a user's combiner: a distributed run exchanges its input rows.
class StatelessSum final : public Combiner {
 public:
  std::string name() const override { return "stateless_sum"; }
  Result<DataTypePtr> OutputType(const DataType& input) const override { return sum_->OutputType(input); }
  std::unique_ptr<Accumulator> NewAccumulator(const DataType& input) const override {
    return sum_->NewAccumulator(input);
  }

 private:
  std::shared_ptr<const Combiner> sum_ = *BuiltinCombiner("sum");
};

class StageCutTest : public testing::TempDirTest {
 protected:
  // The rows of the Arrow IPC files `files`, in order.
  Batches ReadRows(const std::vector<std::string>& files) {
    Batches batches;
    auto arrow = ExchangeInput();
    EXPECT_TRUE(arrow.ok());
    auto source = InputsFactory(files, *arrow)(LocalFileSystem::Instance());
    EXPECT_TRUE(source.ok()) << source.status().ToString();
    for (;;) {
      auto unit = (*source)->NextUnit();
      EXPECT_TRUE(unit.ok()) << unit.status().ToString();
      if (!unit.ok() || *unit == nullptr) return batches;
      auto decoded = (*unit)->Decode();
      EXPECT_TRUE(decoded.ok()) << decoded.status().ToString();
      batches.push_back(decoded->batch);
    }
  }

  // The files of partition `partition` of exchange directory `name`.
  std::vector<std::string> PartitionFiles(const std::string& name, int partition) {
    std::vector<std::string> files;
    const fs::path part = dir_ / name / ("recflow_partition=" + std::to_string(partition));
    if (!fs::exists(part)) return files;
    for (const auto& entry : fs::directory_iterator(part)) files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    return files;
  }

  // The files of exchange directory `name` (every partition's, in partition then name order).
  std::vector<std::string> ExchangeFiles(const std::string& name) {
    std::vector<std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(dir_ / name)) {
      const std::string file = entry.path().filename().string();
      if (entry.is_regular_file() && file[0] != '_' && file[0] != '.') files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
  }

  // An exchange's sink writing into directory `name`.
  dataset::SinkOptions ExchangeSink(const std::string& name) {
    dataset::SinkOptions exchange = testing::FeatherSink(dir_ / name);
    exchange.partition_by = {kKeyPartitionColumn};
    return exchange;
  }

  // The reader of an exchange's files.
  Result<dataset::InputOptions> ExchangeInput() {
    dataset::InputSpec spec;
    spec.from = "arrow";
    return dataset::MakeInputOptions(spec, LocalFileSystem::Instance());
  }
};

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
  map_options.exchanges[groups.node()] = ExchangeSink("exchange");
  map_options.partitions = 3;
  ASSIGN_OR_FAIL(StageCut, map_cut, CutStage(p, plan.stages[0], map, map_options));
  std::vector<std::string> names;
  for (const Node& node : map_cut.pipeline->nodes()) names.push_back(node.name);
  EXPECT_EQ(names, (std::vector<std::string>{"rows", "groups.partition", "groups.exchange"}));
  EXPECT_EQ(OriginNodes(map_cut), (std::vector<int>{0, -1, -1}));
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), *map_cut.pipeline, RunOptions::Defaults(), nullptr).ok());

  ASSIGN_OR_FAIL(StageShape, reduce, CheckStage(p, plan.stages[1]));
  EXPECT_EQ(reduce.roots, std::vector<int>{groups.node()});
  ASSIGN_OR_FAIL(dataset::InputOptions, arrow, ExchangeInput());
  std::vector<std::string> got;
  for (int partition = 0; partition < 3; ++partition) {
    std::vector<std::string> files;
    const fs::path part = dir_ / "exchange" / ("recflow_partition=" + std::to_string(partition));
    for (const auto& entry : fs::directory_iterator(part)) files.push_back(entry.path().string());
    ASSERT_FALSE(files.empty()) << part;
    StageCutOptions reduce_options;
    reduce_options.grouped[groups.node()] = InputsFactory(files, arrow);
    ASSIGN_OR_FAIL(StageCut, reduce_cut, CutStage(p, plan.stages[1], reduce, reduce_options));
    EXPECT_EQ(OriginNodes(reduce_cut), (std::vector<int>{-1, groups.node(), 2}));
    CollectSink sink;
    RunOptions options = RunOptions::Defaults();
    options.outputs["groups"] = &sink;
    ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), *reduce_cut.pipeline, options, nullptr).ok());
    for (std::string& row : RowTexts(sink.TakeBatches())) got.push_back(std::move(row));
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);  // each group once, its values in input order
}

// The aggregates of the combine tests: every kind of state (count, struct, nullable extreme, strings).
std::vector<Aggregate> Aggregates(std::shared_ptr<const Combiner> sum) {
  return {Aggregate{"", *BuiltinCombiner("count_all"), "rows"}, Aggregate{"value", std::move(sum), "total"},
          Aggregate{"value", *BuiltinCombiner("mean"), "mean"}, Aggregate{"key", *BuiltinCombiner("max"), "top"}};
}

// Runs combine_per_key `totals` (Aggregates(sum)) over Rows(700) as two map tasks (rows 0-369 and 370-699, 10 and 9
// batches) writing exchanges "exchange0" and "exchange1" of 3 partitions, then one reduce per partition over both
// tasks' files in task order. Checks the map cut's steps (`partial`: with the pre-aggregation step), that each
// partition's groups come in the whole run's order, and that all of them are the whole run's rows; returns the
// number of rows each task's exchange held.
class CombineCutTest : public StageCutTest {
 protected:
  std::vector<int64_t> RunCut(std::shared_ptr<const Combiner> sum, bool partial) {
    const Batches all = Rows(700);
    const auto rows = std::make_shared<const Batches>(all);
    Pipeline p;
    const PCollection totals = p.CombinePerKey("totals", p.Create("rows", RowSchema(), *rows), {"key"}, Aggregates(sum));
    dataset::SinkOptions write = testing::FeatherSink(dir_ / "out");
    write.mode = dataset::SaveMode::kOverwrite;
    p.Write("write", totals, write);
    EXPECT_TRUE(p.status().ok()) << p.status().ToString();
    CollectSink whole;
    RunOptions whole_options = RunOptions::Defaults();
    whole_options.outputs["totals"] = &whole;
    EXPECT_TRUE(RunPipeline(ExecContext::Defaults(), p, whole_options, nullptr).ok());
    const std::vector<std::string> expected = RowTextsInOrder(whole.TakeBatches());
    EXPECT_EQ(expected.size(), 12u);

    auto plan = MakePlan(p);
    EXPECT_TRUE(plan.ok());
    auto map = CheckStage(p, plan->stages[0]);
    EXPECT_TRUE(map.ok());
    std::vector<int64_t> exchanged;
    for (int task = 0; task < 2; ++task) {
      const auto split = std::make_shared<const Batches>(task == 0 ? all.begin() : all.begin() + 10,
                                                         task == 0 ? all.begin() + 10 : all.end());
      StageCutOptions map_options;
      map_options.input = [split](const std::shared_ptr<FileSystem>&) -> Result<std::unique_ptr<Source>> {
        return MakeBatchSource("split", RowSchema(), split);
      };
      const std::string exchange = "exchange" + std::to_string(task);
      map_options.exchanges[totals.node()] = ExchangeSink(exchange);
      map_options.partitions = 3;
      auto cut = CutStage(p, plan->stages[0], *map, map_options);
      EXPECT_TRUE(cut.ok()) << cut.status().ToString();
      if (!cut.ok()) return exchanged;
      std::vector<std::string> names;
      for (const Node& node : cut->pipeline->nodes()) names.push_back(node.name);
      if (partial) {
        EXPECT_EQ(names, (std::vector<std::string>{"rows", "totals.partial", "totals.partition", "totals.exchange"}));
        EXPECT_EQ(cut->origin[1], (CutOrigin{totals.node(), true, false}));
      } else {
        EXPECT_EQ(names, (std::vector<std::string>{"rows", "totals.partition", "totals.exchange"}));
      }
      EXPECT_EQ(cut->counted_stage, 0u);
      EXPECT_TRUE(RunPipeline(ExecContext::Defaults(), *cut->pipeline, RunOptions::Defaults(), nullptr).ok());
      int64_t count = 0;
      for (const auto& batch : ReadRows(ExchangeFiles(exchange))) count += batch->num_rows();
      exchanged.push_back(count);
    }

    auto reduce = CheckStage(p, plan->stages[1]);
    EXPECT_TRUE(reduce.ok());
    auto arrow = ExchangeInput();
    EXPECT_TRUE(arrow.ok());
    std::vector<std::string> got;
    for (int partition = 0; partition < 3; ++partition) {
      std::vector<std::string> files = PartitionFiles("exchange0", partition);
      for (std::string& file : PartitionFiles("exchange1", partition)) files.push_back(std::move(file));
      EXPECT_FALSE(files.empty()) << partition;
      StageCutOptions reduce_options;
      reduce_options.grouped[totals.node()] = InputsFactory(files, *arrow);
      auto cut = CutStage(p, plan->stages[1], *reduce, reduce_options);
      EXPECT_TRUE(cut.ok()) << cut.status().ToString();
      if (!cut.ok()) return exchanged;
      EXPECT_EQ(cut->origin[1], (CutOrigin{totals.node(), !partial, true}));
      EXPECT_EQ(cut->counted_stage, 1u);
      CollectSink sink;
      RunOptions options = RunOptions::Defaults();
      options.outputs["totals"] = &sink;
      const auto ran = RunPipeline(ExecContext::Defaults(), *cut->pipeline, options, nullptr);
      EXPECT_TRUE(ran.ok()) << ran.status().ToString();
      const std::vector<std::string> part = RowTextsInOrder(sink.TakeBatches());
      // The partition's groups in the whole run's order: first appearance, task by task.
      std::vector<std::string> in_order;
      for (const std::string& row : expected) {
        if (std::find(part.begin(), part.end(), row) != part.end()) in_order.push_back(row);
      }
      EXPECT_EQ(part, in_order) << "partition " << partition;
      got.insert(got.end(), part.begin(), part.end());
    }
    std::sort(got.begin(), got.end());
    std::vector<std::string> sorted = expected;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(got, sorted);
    return exchanged;
  }
};

TEST_F(CombineCutTest, ACombinePerKeyExchangesOneStateRowPerKeyPerMapTaskAndMergesToTheWholeRun) {
  // 12 keys (11 and the null key) in each task's 370 or 330 rows: 12 state rows leave each task.
  EXPECT_EQ(RunCut(*BuiltinCombiner("sum"), true), (std::vector<int64_t>{12, 12}));
}

TEST_F(CombineCutTest, ACombinerWithoutAStateFormExchangesItsInputRows) {
  EXPECT_EQ(RunCut(std::make_shared<StatelessSum>(), false), (std::vector<int64_t>{370, 330}));
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

TEST_F(StageCutTest, ASideInputIsComputedInAStageOfItsOwnAndReadFromItsCommittedValue) {
  const auto rows = std::make_shared<const Batches>(Rows(300));
  Pipeline p;
  const PCollection input = p.Create("rows", RowSchema(), *rows);
  const PCollection fit = p.CombineGlobally("fit", input, {Aggregate{"value", MomentsCombiner(), "value"}});
  ASSIGN_OR_FAIL(ops::ColumnScaler, scaler, ops::ColumnScaler::Make(RowSchema(), {"value"}, false));
  StepOptions with_fit;
  with_fit.side_inputs.emplace_back("fit", fit);
  const PCollection scaled = p.ParDo("scale", input, MakeScaleDoFn(scaler, {"value"}), with_fit);
  dataset::SinkOptions write = testing::FeatherSink(dir_ / "out");
  write.mode = dataset::SaveMode::kOverwrite;  // the cut's run writes it again
  p.Write("write", scaled, write);
  ASSERT_TRUE(p.status().ok()) << p.status().ToString();
  CollectSink whole;
  RunOptions whole_options = RunOptions::Defaults();
  whole_options.outputs["scale"] = &whole;
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), p, whole_options, nullptr).ok());
  const std::vector<std::string> expected = RowTexts(whole.TakeBatches());

  // The fit's rows leave the first pass through its exchange, a stage of its own keeps its one row, the last pass
  // reads it.
  ASSIGN_OR_FAIL(Plan, plan, MakePlan(p));
  ASSERT_EQ(plan.stages.size(), 2u);
  const std::vector<Stage> stages = DistributedStages(p, plan);
  ASSERT_EQ(stages.size(), 3u);
  EXPECT_EQ(stages[1].roots, std::vector<int>{fit.node()});
  EXPECT_EQ(stages[1].materialized, std::vector<int>{fit.node()});
  ASSIGN_OR_FAIL(StageShape, map, CheckStage(p, stages[0]));
  EXPECT_EQ(map.groupings, std::vector<int>{fit.node()});
  StageCutOptions map_options;
  map_options.input = [rows](const std::shared_ptr<FileSystem>&) -> Result<std::unique_ptr<Source>> {
    return MakeBatchSource("split", RowSchema(), rows);
  };
  map_options.exchanges[fit.node()] = ExchangeSink("exchange");
  map_options.partitions = 3;
  ASSIGN_OR_FAIL(StageCut, map_cut, CutStage(p, stages[0], map, map_options));
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), *map_cut.pipeline, RunOptions::Defaults(), nullptr).ok());

  ASSIGN_OR_FAIL(StageShape, keep, CheckStage(p, stages[1]));
  EXPECT_EQ(keep.kept, std::vector<int>{fit.node()});
  ASSIGN_OR_FAIL(dataset::InputOptions, arrow, ExchangeInput());
  StageCutOptions keep_options;
  keep_options.grouped[fit.node()] = InputsFactory(ExchangeFiles("exchange"), arrow);
  keep_options.kept[fit.node()] = ExchangeSink("side");
  ASSIGN_OR_FAIL(StageCut, keep_cut, CutStage(p, stages[1], keep, keep_options));
  std::vector<std::string> names;
  for (const Node& node : keep_cut.pipeline->nodes()) names.push_back(node.name);
  EXPECT_EQ(names, (std::vector<std::string>{"fit.exchange", "fit", "fit.side.partition", "fit.side"}));
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), *keep_cut.pipeline, RunOptions::Defaults(), nullptr).ok());

  ASSIGN_OR_FAIL(StageShape, apply, CheckStage(p, stages[2]));
  EXPECT_EQ(apply.side_reads, std::vector<int>{fit.node()});
  StageCutOptions apply_options;
  apply_options.input = map_options.input;
  // Without its side value the stage is not cut.
  const Result<StageCut> missing = CutStage(p, stages[2], apply, apply_options);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no side value given for step 'fit'"), std::string::npos);
  apply_options.sides[fit.node()] = InputsFactory(ExchangeFiles("side"), arrow);
  ASSIGN_OR_FAIL(StageCut, apply_cut, CutStage(p, stages[2], apply, apply_options));
  CollectSink got;
  RunOptions options = RunOptions::Defaults();
  options.outputs["scale"] = &got;
  const auto applied = RunPipeline(ExecContext::Defaults(), *apply_cut.pipeline, options, nullptr);
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  EXPECT_EQ(RowTexts(got.TakeBatches()), expected);
}

TEST_F(StageCutTest, AnElementWiseSideInputIsKeptByThePassComputingIt) {
  // The fit made before, given as rows (a Create, a read's node): kept whole by the first pass, read by the second.
  const auto rows = std::make_shared<const Batches>(Rows(100));
  Pipeline fitting;
  const PCollection moments = fitting.CombineGlobally("fit", fitting.Create("rows", RowSchema(), *rows),
                                                      {Aggregate{"value", MomentsCombiner(), "value"}});
  CollectSink fitted;
  RunOptions fit_options = RunOptions::Defaults();
  fit_options.outputs["fit"] = &fitted;
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), fitting, fit_options, nullptr).ok());
  const auto fit_rows = std::make_shared<const Batches>(fitted.TakeBatches());
  const SchemaPtr fit_schema = moments.schema();

  Pipeline p;
  const PCollection fit = p.Create("fitted", fit_schema, *fit_rows);
  ASSIGN_OR_FAIL(ops::ColumnScaler, scaler, ops::ColumnScaler::Make(RowSchema(), {"value"}, false));
  StepOptions with_fit;
  with_fit.side_inputs.emplace_back("fit", fit);
  p.ParDo("scale", p.Create("rows", RowSchema(), *rows), MakeScaleDoFn(scaler, {"value"}), with_fit);
  ASSERT_TRUE(p.status().ok()) << p.status().ToString();
  CollectSink whole;
  RunOptions whole_options = RunOptions::Defaults();
  whole_options.outputs["scale"] = &whole;
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), p, whole_options, nullptr).ok());

  ASSIGN_OR_FAIL(Plan, plan, MakePlan(p, {p.nodes().back().id}));
  const std::vector<Stage> stages = DistributedStages(p, plan);
  ASSERT_EQ(stages.size(), 2u);  // nothing added: the first pass keeps it
  ASSIGN_OR_FAIL(StageShape, keep, CheckStage(p, stages[0]));
  EXPECT_EQ(keep.kept, std::vector<int>{fit.node()});
  StageCutOptions keep_options;
  keep_options.input = [fit_rows, fit_schema](const std::shared_ptr<FileSystem>&) -> Result<std::unique_ptr<Source>> {
    return MakeBatchSource("split", fit_schema, fit_rows);
  };
  keep_options.kept[fit.node()] = ExchangeSink("side");
  ASSIGN_OR_FAIL(StageCut, keep_cut, CutStage(p, stages[0], keep, keep_options));
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), *keep_cut.pipeline, RunOptions::Defaults(), nullptr).ok());

  ASSIGN_OR_FAIL(StageShape, apply, CheckStage(p, stages[1]));
  ASSIGN_OR_FAIL(dataset::InputOptions, arrow, ExchangeInput());
  StageCutOptions apply_options;
  apply_options.input = [rows](const std::shared_ptr<FileSystem>&) -> Result<std::unique_ptr<Source>> {
    return MakeBatchSource("split", RowSchema(), rows);
  };
  apply_options.sides[fit.node()] = InputsFactory(ExchangeFiles("side"), arrow);
  ASSIGN_OR_FAIL(StageCut, apply_cut, CutStage(p, stages[1], apply, apply_options));
  CollectSink got;
  RunOptions options = RunOptions::Defaults();
  options.outputs["scale"] = &got;
  const auto applied = RunPipeline(ExecContext::Defaults(), *apply_cut.pipeline, options, nullptr);
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  EXPECT_EQ(RowTexts(got.TakeBatches()), RowTexts(whole.TakeBatches()));
}

}  // namespace
}  // namespace recflow::pipeline
