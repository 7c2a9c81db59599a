// Tests of a distributed task's share of a run (RunOptions::inputs, tasks, dead_letter_files) and of RunMetrics'
// counters summed over tasks (what recflow.dask.run is built on).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/element_access.h"
#include "recflow/formats/batch_source.h"
#include "recflow/pipeline/collect_sink.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/pipeline_test_util.h"

namespace recflow::pipeline {
namespace {

namespace fs = std::filesystem;
using Batches = std::vector<std::shared_ptr<RecordBatch>>;

SchemaPtr IdSchema() { return Schema::Make({Field::Make("id", int64(), false)}); }

// Rows with ids first, first + 1, ... (`rows` of them) in one batch.
Batches Ids(int64_t first, int64_t rows) {
  Int64Builder ids;
  for (int64_t i = first; i < first + rows; ++i) EXPECT_TRUE(ids.Append(i).ok());
  return {*RecordBatch::Make(IdSchema(), rows, {*ids.Finish()})};
}

std::vector<int64_t> Values(const Batches& batches) {
  std::vector<int64_t> ids;
  for (const auto& b : batches) {
    for (int64_t i = 0; i < b->num_rows(); ++i) ids.push_back(IntegerValue(*b->column_data(0), i));
  }
  return ids;
}

constexpr const char* kJobId = "0b9f4a3c-5d2e-4f61-8a7b-9c0d1e2f3a4b";

class TaskRunTest : public testing::TempDirTest {};

TEST_F(TaskRunTest, AReadStepsTaskInputReplacesItsInput) {
  Pipeline p;
  const PCollection rows = p.Create("rows", IdSchema(), Ids(0, 10));
  CollectSink sink;
  RunOptions options = RunOptions::Defaults();
  options.outputs["rows"] = &sink;
  const auto split = std::make_shared<const Batches>(Ids(100, 3));
  options.inputs["rows"] = [split](const std::shared_ptr<FileSystem>&) -> Result<std::unique_ptr<Source>> {
    return MakeBatchSource("split", IdSchema(), split);
  };
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), p, options, nullptr).ok());
  EXPECT_EQ(Values(sink.TakeBatches()), (std::vector<int64_t>{100, 101, 102}));
  (void)rows;
}

TEST_F(TaskRunTest, ATaskWriteStagesItsFilesInTheAttemptDirectoryOnly) {
  Pipeline p;
  p.Write("write", p.Create("rows", IdSchema(), Ids(0, 10)), testing::FeatherSink(dir_ / "out"));
  fs::create_directories(dir_ / "attempts");
  RunOptions options = RunOptions::Defaults();
  options.tasks["write"] = dataset::TaskAttempt{(dir_ / "attempts" / "task-1").string(), kJobId, 1, 2};
  auto run = RunPipeline(ExecContext::Defaults(), p, options, nullptr);
  ASSERT_TRUE(run.ok()) << run.status().ToString();
  EXPECT_EQ(run->writes.at(0).second.records, 10);
  EXPECT_FALSE(fs::exists(dir_ / "out")) << "a task's write commits nothing";
  EXPECT_EQ(std::distance(fs::recursive_directory_iterator(dir_ / "attempts" / "task-1"),
                          fs::recursive_directory_iterator()),
            1);
}

TEST_F(TaskRunTest, TaskStepsMustBeReadsAndWritesOfThePipeline) {
  Pipeline p;
  p.Write("write", p.Create("rows", IdSchema(), Ids(0, 10)), testing::FeatherSink(dir_ / "out"));
  RunOptions inputs = RunOptions::Defaults();
  inputs.inputs["write"] = [](const std::shared_ptr<FileSystem>&) -> Result<std::unique_ptr<Source>> {
    return Status::Internal("never opened");
  };
  EXPECT_EQ(RunPipeline(ExecContext::Defaults(), p, inputs, nullptr).status().message(),
            "the run's input 'write' is no read step of the pipeline");
  RunOptions tasks = RunOptions::Defaults();
  tasks.tasks["rows"] = dataset::TaskAttempt{(dir_ / "task").string(), kJobId, 0, 1};
  EXPECT_EQ(RunPipeline(ExecContext::Defaults(), p, tasks, nullptr).status().message(),
            "the run's task 'rows' is no write step of the pipeline");
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(TaskRunTest, ADeadLetterFileIsWrittenWhereTheTaskSays) {
  Pipeline p;
  StepOptions step;
  step.on_error = ErrorPolicy{ErrorPolicy::Mode::kDeadLetter, (dir_ / "letters.jsonl").string()};
  const PCollection kept = p.Filter(
      "odd", p.Create("rows", IdSchema(), Ids(0, 4)),
      [](const RowView& row) -> Result<bool> {
        if (row.index() == 1) return Status::DataError("row one");
        return true;
      },
      step);
  CollectSink sink;
  RunOptions options = RunOptions::Defaults();
  options.outputs["odd"] = &sink;
  options.dead_letter_files[(dir_ / "letters.jsonl").string()] = (dir_ / "task-letters.jsonl").string();
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), p, options, nullptr).ok());
  EXPECT_FALSE(fs::exists(dir_ / "letters.jsonl"));
  std::ifstream letters(dir_ / "task-letters.jsonl");
  std::string line;
  ASSERT_TRUE(std::getline(letters, line));
  EXPECT_NE(line.find("row one"), std::string::npos) << line;
  EXPECT_FALSE(std::getline(letters, line));
  (void)kept;
}

TEST_F(TaskRunTest, TasksCountersAddUpInTheJobsMetrics) {
  Pipeline p;
  p.Write("write", p.Create("rows", IdSchema(), Ids(0, 10)), testing::FeatherSink(dir_ / "out"));
  RunMetrics task;
  RunOptions options = RunOptions::Defaults();
  options.tasks["write"] = dataset::TaskAttempt{(dir_ / "task-0").string(), kJobId, 0, 1};
  ASSERT_TRUE(RunPipeline(ExecContext::Defaults(), p, options, &task).ok());
  RunMetrics job;
  job.Reset(p, 1);
  ASSERT_TRUE(job.AddCounters(task.Counters(), task.StepStages()).ok());
  ASSERT_TRUE(job.AddCounters(task.Counters(), task.StepStages()).ok());
  EXPECT_EQ(job.step(1).rows_in.load(), 20);
  EXPECT_EQ(job.step(1).stage, 1);
  EXPECT_EQ(job.stage(0).progress.records.load(), 2 * task.stage(0).progress.records.load());
  std::vector<int64_t> short_counters = task.Counters();
  short_counters.pop_back();
  EXPECT_EQ(job.AddCounters(short_counters, task.StepStages()).code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace recflow::pipeline
