// WriteJob: pushed batches committed as convert commits them; a run that fails turns pushes away and leaves the
// output as it was; Abort and destruction abandon the job.
#include "recflow/python/write_job.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "recflow/testing/sample_arrays.h"

namespace recflow::python {
namespace {

namespace fs = std::filesystem;

class WriteJobTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("recflow_write_job_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // CSV into dir_/out, one shard.
  dataset::OutputSpec Spec(const std::string& mode = "error") const {
    dataset::OutputSpec spec;
    spec.output = (dir_ / "out").string();
    spec.format = "csv";
    spec.mode = mode;
    spec.sync = false;
    return spec;
  }

  // Every path under dir_, relative, sorted.
  std::vector<std::string> Tree() const {
    std::vector<std::string> paths;
    for (const auto& entry : fs::recursive_directory_iterator(dir_)) paths.push_back(fs::relative(entry.path(), dir_));
    std::sort(paths.begin(), paths.end());
    return paths;
  }

  fs::path dir_;
};

// A batch of one int64 column `name` holding `values`.
std::shared_ptr<RecordBatch> Int64Batch(const std::string& name, const std::vector<int64_t>& values) {
  auto column = ArrayData::Make(int64(), static_cast<int64_t>(values.size()), {nullptr, testing::BufferOf(values)}, 0);
  return RecordBatch::Make(Schema::Make({Field::Make(name, int64())}), static_cast<int64_t>(values.size()), {column})
      .ValueOrDie();
}

TEST_F(WriteJobTest, ABatchLargerThanASliceIsCommittedWholeAndInOrder) {
  std::vector<int64_t> values(2 * WriteJob::kSliceRows + 3);
  std::iota(values.begin(), values.end(), 0);
  auto batch = Int64Batch("v", values);
  auto job = WriteJob::Start(Spec(), batch->schema(), 2).ValueOrDie();
  ASSERT_TRUE(job->Push(batch));
  EXPECT_EQ(job->Finish().ValueOrDie().records, static_cast<int64_t>(values.size()));
  std::ifstream in(dir_ / "out" / "part-00000-of-00001.csv");
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "v");
  for (const int64_t value : values) {
    ASSERT_TRUE(std::getline(in, line));
    ASSERT_EQ(line, std::to_string(value));
  }
  EXPECT_FALSE(std::getline(in, line));
}

TEST_F(WriteJobTest, PushedBatchesAreCommittedInOrder) {
  auto batch = Int64Batch("v", {1, 2, 3});
  auto job = WriteJob::Start(Spec(), batch->schema(), 1).ValueOrDie();
  ASSERT_TRUE(job->Push(batch));
  ASSERT_TRUE(job->Push(Int64Batch("v", {4})));
  const dataset::SinkStats stats = job->Finish().ValueOrDie();
  EXPECT_EQ(stats.records, 4);
  EXPECT_EQ(stats.files, 1);
  std::ifstream in(dir_ / "out" / "part-00000-of-00001.csv");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "v\n1\n2\n3\n4\n");
  EXPECT_TRUE(fs::exists(dir_ / "out" / "_SUCCESS"));
}

TEST_F(WriteJobTest, ASpecTheSchemaCannotTakeIsRefusedBeforeAnythingRuns) {
  dataset::OutputSpec spec = Spec();
  spec.partition_by = {"missing"};
  const Status st = WriteJob::Start(spec, Int64Batch("v", {1})->schema(), 1).status();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("missing"), std::string::npos) << st.ToString();
  EXPECT_TRUE(Tree().empty());
}

TEST_F(WriteJobTest, AFailedRunTurnsPushesAwayAndLeavesTheOutputAsItWas) {
  auto old = WriteJob::Start(Spec(), Int64Batch("v", {7})->schema(), 1).ValueOrDie();
  ASSERT_TRUE(old->Push(Int64Batch("v", {7})));
  ASSERT_TRUE(old->Finish().ok());
  const std::vector<std::string> before = Tree();

  // A list holding a null element passes tf.Example's layout check; its encoder refuses the record.
  auto items = ArrayData::Make(int64(), 2, {testing::ValidityOf("10"), testing::BufferOf(std::vector<int64_t>{1, 0})},
                               1);
  auto lists = ArrayData::Make(list(int64()), 1, {nullptr, testing::BufferOf(std::vector<int32_t>{0, 2})}, 0, 0,
                               {items});
  auto bad = RecordBatch::Make(Schema::Make({Field::Make("v", list(int64()))}), 1, {lists}).ValueOrDie();
  dataset::OutputSpec spec = Spec("overwrite");
  spec.format = "tfrecord";
  auto job = WriteJob::Start(spec, bad->schema(), 1).ValueOrDie();
  int64_t pushes = 0;
  while (job->Push(bad)) ++pushes;  // ends once the failed run abandons the queue
  EXPECT_LE(pushes, static_cast<int64_t>(WriteJob::kQueueBatches) + 64);
  const Status st = job->Finish().status();
  EXPECT_NE(st.ToString().find("null element"), std::string::npos) << st.ToString();
  EXPECT_EQ(Tree(), before);
}

TEST_F(WriteJobTest, AbortAndDestructionLeaveNoTrace) {
  auto batch = Int64Batch("v", {1, 2});
  auto aborted = WriteJob::Start(Spec(), batch->schema(), 1).ValueOrDie();
  ASSERT_TRUE(aborted->Push(batch));
  aborted->Abort(Status::Cancelled("stopped by the test"));
  aborted->Abort(Status::Cancelled("twice"));
  const Status st = aborted->Finish().status();
  EXPECT_EQ(st.code(), StatusCode::kCancelled) << st.ToString();
  {
    auto dropped = WriteJob::Start(Spec(), batch->schema(), 1).ValueOrDie();
    ASSERT_TRUE(dropped->Push(batch));
  }
  EXPECT_TRUE(Tree().empty());
}

}  // namespace
}  // namespace recflow::python
