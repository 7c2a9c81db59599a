// Tests of the distributed commit: task attempts written by DatasetSink staged and uncommitted under the driver's
// AttemptsDir, the first finished attempt of each task adopted, the rest discarded, the dataset committed once.
#include <gtest/gtest.h>

#include "recflow/columnar/builder.h"
#include "recflow/core/fault_injecting_filesystem.h"
#include "recflow/core/memory_filesystem.h"
#include "recflow/dataset/dataset_sink.h"
#include "recflow/formats/csv/csv_output_format.h"

namespace recflow::dataset {
namespace {

SchemaPtr RowSchema() { return Schema::Make({Field::Make("id", int64(), false), Field::Make("key", utf8(), false)}); }

// Rows `first` .. `first + n - 1`, key "a" for even ids and "b" for odd ones.
std::shared_ptr<RecordBatch> Rows(int64_t first, int64_t n) {
  Int64Builder ids;
  BinaryBuilder keys(utf8());
  for (int64_t i = first; i < first + n; ++i) {
    EXPECT_TRUE(ids.Append(i).ok());
    EXPECT_TRUE(keys.Append(i % 2 == 0 ? "a" : "b").ok());
  }
  return *RecordBatch::Make(RowSchema(), n, {*ids.Finish(), *keys.Finish()});
}

SinkOptions Options() {
  SinkOptions options = SinkOptions::Defaults();
  options.output = "/out";
  options.sync = false;
  options.partition_by = {"key"};
  options.format = [](SchemaPtr schema) { return csv::MakeCsvOutputFormat(std::move(schema)); };
  return options;
}

// Writes `batch` as attempt `dir` of task `index` of `count` of job `job_id`; the sink is returned uncommitted when
// `commit` is false.
Result<std::unique_ptr<DatasetSink>> WriteTask(const std::shared_ptr<FileSystem>& fs, const std::string& dir,
                                               const std::string& job_id, int64_t index, int64_t count,
                                               const std::shared_ptr<RecordBatch>& batch, bool commit = true) {
  SinkOptions options = Options();
  options.task = TaskAttempt{dir, job_id, index, count};
  ASSIGN_OR_RETURN(auto sink, DatasetSink::Open(options, RowSchema(), fs));
  ASSIGN_OR_RETURN(std::unique_ptr<SinkLocalState> local, sink->NewLocalState());
  ASSIGN_OR_RETURN(std::unique_ptr<SinkPartial> partial, sink->Consume(local.get(), batch));
  RETURN_NOT_OK(sink->Merge(partial.get()));
  RETURN_NOT_OK(sink->Process(partial.get()));
  RETURN_NOT_OK(sink->Emit(partial.get()));
  ASSIGN_OR_RETURN(std::unique_ptr<SinkPartial> rest, sink->Drain());
  if (rest != nullptr) {
    RETURN_NOT_OK(sink->Process(rest.get()));
    RETURN_NOT_OK(sink->Emit(rest.get()));
  }
  if (commit) RETURN_NOT_OK(sink->Commit());
  return sink;
}

std::string Text(FileSystem& fs, const std::string& path) {
  auto file = fs.ReadWholeFile(path);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  return file.ok() ? std::string((*file)->view()) : "";
}

TEST(DistributedCommitTest, TheFirstFinishedAttemptOfEachTaskIsCommittedOnceUnderNamesFromTheTaskIndex) {
  auto fs = std::make_shared<MemoryFileSystem>();
  auto job = BeginDatasetJob(Options(), *RowSchema(), fs);
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  auto attempts = (*job)->AttemptsDir();
  ASSERT_TRUE(attempts.ok()) << attempts.status().ToString();
  const std::string id = (*job)->job_id();
  // Task 1 finishes twice (a retry after its result was lost); task 0 once after an attempt that died mid-write.
  ASSERT_TRUE(WriteTask(fs, *attempts + "/t1-first", id, 1, 2, Rows(4, 4)).ok());
  ASSERT_TRUE(WriteTask(fs, *attempts + "/t1-second", id, 1, 2, Rows(4, 4)).ok());
  ASSERT_TRUE(fs->CreateDirectory(*attempts + "/t0-died").ok());
  ASSERT_TRUE(fs->WriteSmallFile(*attempts + "/t0-died/half", "0,", false).ok());
  ASSERT_TRUE(WriteTask(fs, *attempts + "/t0", id, 0, 2, Rows(0, 4)).ok());
  // Two attempts of one task take the same names: adopting the second is refused.
  ASSERT_TRUE((*job)->AdoptAttempt(*attempts + "/t1-first").ok());
  EXPECT_EQ((*job)->AdoptAttempt(*attempts + "/t1-second").code(), StatusCode::kAlreadyExists);
  ASSERT_TRUE((*job)->AdoptAttempt(*attempts + "/t0").ok());
  EXPECT_FALSE(fs->Exists("/out").ValueOrDie()) << "nothing appears before the commit";
  ASSERT_TRUE((*job)->Commit().ok());

  auto listed = fs->ListFilesRecursively("/out");
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(*listed, (std::vector<std::string>{"_SUCCESS", "_recflow_schema.json", "key=a/part-00000-of-00002.csv",
                                               "key=a/part-00001-of-00002.csv", "key=b/part-00000-of-00002.csv",
                                               "key=b/part-00001-of-00002.csv"}));
  EXPECT_EQ(Text(*fs, "/out/key=a/part-00000-of-00002.csv"), "id\n0\n2\n");
  EXPECT_EQ(Text(*fs, "/out/key=b/part-00001-of-00002.csv"), "id\n5\n7\n");
}

TEST(DistributedCommitTest, AnAbortedOrDroppedAttemptRemovesItsDirectoryAndAStrayDirectoryIsRefused) {
  auto fs = std::make_shared<MemoryFileSystem>();
  auto job = BeginDatasetJob(Options(), *RowSchema(), fs);
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  const std::string attempts = *(*job)->AttemptsDir();
  {
    auto dropped = WriteTask(fs, attempts + "/dropped", (*job)->job_id(), 0, 1, Rows(0, 3), /*commit=*/false);
    ASSERT_TRUE(dropped.ok()) << dropped.status().ToString();
    EXPECT_TRUE(fs->Exists(attempts + "/dropped").ValueOrDie());
  }
  EXPECT_FALSE(fs->Exists(attempts + "/dropped").ValueOrDie());
  auto aborted = WriteTask(fs, attempts + "/aborted", (*job)->job_id(), 0, 1, Rows(0, 3), /*commit=*/false);
  ASSERT_TRUE(aborted.ok());
  ASSERT_TRUE((*aborted)->Abort().ok());
  EXPECT_FALSE(fs->Exists(attempts + "/aborted").ValueOrDie());
  // An attempt directory is the attempt's own: a second attempt cannot take it.
  ASSERT_TRUE(WriteTask(fs, attempts + "/taken", (*job)->job_id(), 0, 1, Rows(0, 3)).ok());
  EXPECT_EQ(WriteTask(fs, attempts + "/taken", (*job)->job_id(), 0, 1, Rows(0, 3)).status().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ((*job)->AdoptAttempt("/elsewhere").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ((*job)->AdoptAttempt(attempts + "/taken/key=a").code(), StatusCode::kInvalidArgument);
}

TEST(DistributedCommitTest, AnAttemptThatCannotBeRemovedFailsNeitherTheCommitNorReachesTheOutput) {
  // A lost worker's attempt still adding files while the driver commits makes removing the attempts fail (ENOTEMPTY):
  // here every removal fails from the commit on.
  auto memory = std::make_shared<MemoryFileSystem>();
  auto fs = std::make_shared<FaultInjectingFileSystem>(memory);
  auto job = BeginDatasetJob(Options(), *RowSchema(), fs);
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  const std::string attempts = *(*job)->AttemptsDir();
  ASSERT_TRUE(WriteTask(fs, attempts + "/t0", (*job)->job_id(), 0, 1, Rows(0, 4)).ok());
  ASSERT_TRUE(fs->CreateDirectory(attempts + "/t0-lost").ok());
  ASSERT_TRUE(fs->WriteSmallFile(attempts + "/t0-lost/still-writing", "0,", false).ok());
  ASSERT_TRUE((*job)->AdoptAttempt(attempts + "/t0").ok());
  fs->FailNth(FsOperation::kRemove, 1, FsFault::kError, 1000);
  const Status committed = (*job)->Commit();
  ASSERT_TRUE(committed.ok()) << committed.ToString();
  auto listed = memory->ListFilesRecursively("/out");
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(*listed, (std::vector<std::string>{"_SUCCESS", "_recflow_schema.json", "key=a/part-00000-of-00001.csv",
                                               "key=b/part-00000-of-00001.csv"}));
  // What the job could not remove is a stale job's once its driver is gone: the next writer of the output removes it.
  job->reset();
  fs->Clear();
  SinkOptions overwrite = Options();
  overwrite.mode = SaveMode::kOverwrite;
  auto next = BeginDatasetJob(overwrite, *RowSchema(), fs);
  ASSERT_TRUE(next.ok()) << next.status().ToString();
  ASSERT_TRUE((*next)->Abort().ok());
  auto parent = memory->ListDirectory("/");
  ASSERT_TRUE(parent.ok());
  EXPECT_EQ(*parent, std::vector<std::string>{"out"});
}

TEST(DistributedCommitTest, ATaskNeedsAShardCountAndAnIndexInRange) {
  SinkOptions options = Options();
  options.task = TaskAttempt{"/attempt", NewRandomUuid(), 2, 2};
  EXPECT_EQ(options.Validate().code(), StatusCode::kInvalidArgument);
  options.task.index = 1;
  EXPECT_TRUE(options.Validate().ok());
  options.sharding = Sharding{Sharding::Kind::kMaxRecords, 10};
  EXPECT_EQ(options.Validate().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace recflow::dataset
