// Tests for the dataset commit protocol: save modes, staged path checks, collisions, stale jobs.
#include "recflow/dataset/commit.h"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "recflow/dataset/commit_testing.h"
#include "recflow/testing/testdata.h"

namespace recflow::dataset {
namespace {

namespace fs = std::filesystem;
using testing::ReadTree;
using testing::Tree;
using testing::WriteFile;
using testing::WriteTree;

const Tree kOld = {{"_SUCCESS", ""},
                   {"label=0/part-00000-of-00002.tfrecord", "old0"},
                   {"label=1/part-00001-of-00002.tfrecord", "old1"}};

class CommitTest : public ::testing::Test {
 protected:
  std::string Output() const { return dir_.File("out"); }

  /// Runs one job writing `files` (relative path -> content) under `mode`.
  Status RunJob(SaveMode mode, const Tree& files) {
    ASSIGN_OR_RETURN(auto job, DatasetCommitter::Begin(Output(), mode));
    for (const auto& [rel, content] : files) {
      ASSIGN_OR_RETURN(std::string path, job->NewFilePath(rel));
      WriteFile(path, content);
    }
    return job->Commit();
  }

  recflow::testing::ScratchDir dir_;
};

TEST(SaveModeTest, NamesRoundTrip) {
  for (SaveMode mode :
       {SaveMode::kErrorIfExists, SaveMode::kOverwrite, SaveMode::kAppend, SaveMode::kOverwritePartitions}) {
    auto parsed = ParseSaveMode(SaveModeName(mode));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, mode);
  }
  EXPECT_EQ(SaveModeName(SaveMode::kOverwritePartitions), "overwrite-partitions");
  EXPECT_EQ(SaveModeName(SaveMode::kErrorIfExists), "error");
  auto bad = ParseSaveMode("ignore");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("ignore"), std::string::npos);
}

TEST(StagedPathTest, AcceptsRelativeDataPaths) {
  for (const char* ok : {"part-00000-of-00016.tfrecord.gz", "label=3/part-00000-of-00016.tfrecord.gz",
                         "a=x%2F..%2Fy/b=__HIVE_DEFAULT_PARTITION__/f", "x..y/z."}) {
    EXPECT_TRUE(ValidateStagedPath(ok).ok()) << ok;
  }
}

TEST(StagedPathTest, RefusesEscapesHiddenNamesAndControlCharacters) {
  for (const std::string& bad : std::vector<std::string>{"", "/etc/passwd", "..", "../x", "a/../../x", ".", "./a", "a//b", "a/", "_SUCCESS",
                                "_temporary/x", "a/.crc", std::string("a\nb"), std::string("a\0b", 3),
                                std::string(256, 'x')}) {
    Status st = ValidateStagedPath(bad);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_TRUE(ValidateStagedPath(std::string(255, 'x')).ok());
}

TEST(CommitOptionsTest, JobIdMustBeAUuid) {
  CommitOptions options = CommitOptions::Defaults();
  EXPECT_TRUE(options.Validate().ok());
  options.job_id = "../../etc";
  EXPECT_EQ(options.Validate().code(), StatusCode::kInvalidArgument);
  options.job_id = "1f5b4d1a-2c3e-4b5a-9d8e-0123456789ab";
  EXPECT_TRUE(options.Validate().ok());
}

TEST_F(CommitTest, NewFilePathStagesUnderTheJobDirectory) {
  CommitOptions options = CommitOptions::Defaults();
  options.job_id = "1f5b4d1a-2c3e-4b5a-9d8e-0123456789ab";
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kErrorIfExists, options);
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  EXPECT_EQ((*job)->job_id(), options.job_id);
  auto path = (*job)->NewFilePath("label=3/part-00000-of-00016.tfrecord.gz");
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  EXPECT_EQ(*path, Output() + "/_temporary/" + options.job_id + "/data/label=3/part-00000-of-00016.tfrecord.gz");
  EXPECT_TRUE(fs::is_directory(fs::path(*path).parent_path()));
  EXPECT_EQ((*job)->NewFilePath("../escape").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ((*job)->NewFilePath("/abs").status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(fs::exists(dir_.path() / "escape"));
}

TEST_F(CommitTest, ErrorModeWritesANewDatasetAndThenRefusesIt) {
  ASSERT_TRUE(RunJob(SaveMode::kErrorIfExists, {{"a/f1", "1"}, {"f2", "2"}}).ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"_SUCCESS", ""}, {"a/f1", "1"}, {"f2", "2"}}));
  auto again = DatasetCommitter::Begin(Output(), SaveMode::kErrorIfExists);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kAlreadyExists);
  EXPECT_NE(again.status().message().find(Output()), std::string::npos) << again.status().ToString();
}

TEST_F(CommitTest, ErrorModeTreatsAStaleTemporaryAsEmpty) {
  WriteFile(fs::path(Output()) / "_temporary/0b5e1bd6-4d1c-4c9e-8c4e-5d1f0e2a7b11/data/f", "stale");
  ASSERT_TRUE(RunJob(SaveMode::kErrorIfExists, {{"f", "new"}}).ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"_SUCCESS", ""}, {"f", "new"}}));
}

TEST_F(CommitTest, ErrorModeRefusesContentThatAppearedBeforeCommit) {
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kErrorIfExists);
  ASSERT_TRUE(job.ok());
  WriteFile((*(*job)->NewFilePath("f")), "new");
  WriteFile(fs::path(Output()) / "other", "someone else");
  EXPECT_EQ((*job)->Commit().code(), StatusCode::kAlreadyExists);
  EXPECT_TRUE((*job)->Abort().ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"other", "someone else"}}));
}

TEST_F(CommitTest, OverwriteReplacesTheWholeDataset) {
  WriteTree(Output(), kOld);
  WriteFile(fs::path(Output()) / "stray.txt", "x");
  ASSERT_TRUE(RunJob(SaveMode::kOverwrite, {{"label=1/part-00000-of-00001.tfrecord", "new1"}}).ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"_SUCCESS", ""}, {"label=1/part-00000-of-00001.tfrecord", "new1"}}));
  EXPECT_FALSE(fs::exists(fs::path(Output()) / "_temporary"));
}

TEST_F(CommitTest, OverwriteOfAMissingOutputCreatesIt) {
  ASSERT_TRUE(RunJob(SaveMode::kOverwrite, {{"f", "1"}}).ok());
  EXPECT_EQ(ReadTree(Output()), (Tree{{"_SUCCESS", ""}, {"f", "1"}}));
}

TEST_F(CommitTest, AppendAddsFiles) {
  WriteTree(Output(), kOld);
  ASSERT_TRUE(RunJob(SaveMode::kAppend, {{"label=1/part-00000-x.tfrecord", "a1"}, {"label=2/part-00000-x.tfrecord", "a2"}})
                  .ok());
  Tree expected = kOld;
  expected["label=1/part-00000-x.tfrecord"] = "a1";
  expected["label=2/part-00000-x.tfrecord"] = "a2";
  EXPECT_EQ(ReadTree(Output(), false), expected);
}

TEST_F(CommitTest, AppendCollisionMovesNothing) {
  WriteTree(Output(), kOld);
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kAppend);
  ASSERT_TRUE(job.ok());
  WriteFile(*(*job)->NewFilePath("label=0/a-new-file"), "fine");
  WriteFile(*(*job)->NewFilePath("label=1/part-00001-of-00002.tfrecord"), "collides");
  Status st = (*job)->Commit();
  EXPECT_EQ(st.code(), StatusCode::kAlreadyExists);
  EXPECT_NE(st.message().find("label=1/part-00001-of-00002.tfrecord"), std::string::npos) << st.ToString();
  EXPECT_EQ(ReadTree(Output()), kOld);
  EXPECT_TRUE((*job)->Abort().ok());
  EXPECT_EQ(ReadTree(Output(), false), kOld);
}

TEST_F(CommitTest, AppendRefusesAFileWhereADirectoryMustGo) {
  WriteTree(Output(), {{"label=0", "a file"}});
  EXPECT_EQ(RunJob(SaveMode::kAppend, {{"label=0/f", "x"}}).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"label=0", "a file"}}));
}

TEST_F(CommitTest, OverwritePartitionsReplacesOnlyWrittenPartitions) {
  Tree old = kOld;
  old["label=2/x=1/f"] = "old2";
  WriteTree(Output(), old);
  ASSERT_TRUE(RunJob(SaveMode::kOverwritePartitions, {{"label=1/part-00000-of-00002.tfrecord", "new1a"},
                                                      {"label=1/part-00001-of-00002.tfrecord", "new1b"},
                                                      {"label=3/x=0/f", "new3"}})
                  .ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"_SUCCESS", ""},
                                              {"label=0/part-00000-of-00002.tfrecord", "old0"},
                                              {"label=1/part-00000-of-00002.tfrecord", "new1a"},
                                              {"label=1/part-00001-of-00002.tfrecord", "new1b"},
                                              {"label=2/x=1/f", "old2"},
                                              {"label=3/x=0/f", "new3"}}));
}

TEST_F(CommitTest, OverwritePartitionsWithTopLevelFilesOverwritesAll) {
  WriteTree(Output(), kOld);
  ASSERT_TRUE(RunJob(SaveMode::kOverwritePartitions, {{"part-00000-of-00001", "flat"}}).ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"_SUCCESS", ""}, {"part-00000-of-00001", "flat"}}));
}

TEST_F(CommitTest, DestructorAborts) {
  WriteTree(Output(), kOld);
  {
    auto job = DatasetCommitter::Begin(Output(), SaveMode::kOverwrite);
    ASSERT_TRUE(job.ok());
    WriteFile(*(*job)->NewFilePath("f"), "never committed");
  }
  EXPECT_EQ(ReadTree(Output(), false), kOld);
}

TEST_F(CommitTest, CommitIsOnce) {
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kOverwrite);
  ASSERT_TRUE(job.ok());
  WriteFile(*(*job)->NewFilePath("f"), "1");
  ASSERT_TRUE((*job)->Commit().ok());
  EXPECT_EQ((*job)->Commit().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ((*job)->NewFilePath("g").status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE((*job)->Abort().ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"_SUCCESS", ""}, {"f", "1"}}));
}

TEST_F(CommitTest, OutputThatIsAFileIsRefused) {
  WriteFile(Output(), "x");
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kOverwrite);
  ASSERT_FALSE(job.ok());
  EXPECT_EQ(job.status().code(), StatusCode::kAlreadyExists);
}

TEST_F(CommitTest, StaleJobsAreCleanedAndLiveJobsKept) {
  WriteTree(Output(), kOld);
  const fs::path temporary = fs::path(Output()) / "_temporary";
  // A crashed job: its lock file exists but nobody holds it.
  const std::string stale = "0b5e1bd6-4d1c-4c9e-8c4e-5d1f0e2a7b11";
  WriteFile(temporary / (stale + ".lock"), "");
  WriteFile(temporary / stale / "data/label=0/part-00000-of-00002.tfrecord", "partial");
  // An orphan directory without a lock file.
  WriteFile(temporary / "orphan/data/f", "partial");
  auto live = DatasetCommitter::Begin(Output(), SaveMode::kAppend);
  ASSERT_TRUE(live.ok()) << live.status().ToString();
  EXPECT_FALSE(fs::exists(temporary / stale));
  EXPECT_FALSE(fs::exists(temporary / (stale + ".lock")));
  EXPECT_FALSE(fs::exists(temporary / "orphan"));
  WriteFile(*(*live)->NewFilePath("label=5/f"), "live");

  auto other = DatasetCommitter::Begin(Output(), SaveMode::kAppend);
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  EXPECT_TRUE(fs::exists(temporary / (*live)->job_id() / "data/label=5/f")) << "a live job was cleaned";
  ASSERT_TRUE((*other)->Abort().ok());
  ASSERT_TRUE((*live)->Commit().ok());
  Tree expected = kOld;
  expected["label=5/f"] = "live";
  EXPECT_EQ(ReadTree(Output(), false), expected);
}

TEST_F(CommitTest, AStaleJobPastItsCommitPointIsFinished) {
  WriteTree(Output(), kOld);
  const std::string job = "0b5e1bd6-4d1c-4c9e-8c4e-5d1f0e2a7b11";
  const fs::path job_dir = fs::path(Output()) / "_temporary" / job;
  WriteFile(job_dir.string() + ".lock", "");
  WriteFile(job_dir / "data/label=1/g", "new");
  WriteFile(job_dir / "_SUCCESS", "");
  // The commit was killed after moving the old _SUCCESS and label=1 aside.
  fs::create_directories(job_dir / "backup");
  fs::rename(fs::path(Output()) / "_SUCCESS", job_dir / "backup/0");
  fs::rename(fs::path(Output()) / "label=1", job_dir / "backup/1");
  const std::string prefix = "_temporary/" + job;
  WriteFile(job_dir / "JOURNAL", "recflow-commit-journal 1\nrename\t_SUCCESS\t" + prefix + "%2Fbackup%2F0\nrename\tlabel%3D1\t" +
                                      prefix + "%2Fbackup%2F1\nrename\t" + prefix + "%2Fdata%2Flabel%3D1\tlabel%3D1\nrename\t" +
                                      prefix + "%2F_SUCCESS\t_SUCCESS\nend\n");
  for (int run = 0; run < 2; ++run) {
    auto recovery = DatasetCommitter::Begin(Output(), SaveMode::kAppend);
    ASSERT_TRUE(recovery.ok()) << recovery.status().ToString();
    ASSERT_TRUE((*recovery)->Abort().ok());
    EXPECT_EQ(ReadTree(Output(), false),
              (Tree{{"_SUCCESS", ""}, {"label=0/part-00000-of-00002.tfrecord", "old0"}, {"label=1/g", "new"}}));
  }
}

TEST_F(CommitTest, AMalformedJournalIsReported) {
  const fs::path job_dir = fs::path(Output()) / "_temporary/0b5e1bd6-4d1c-4c9e-8c4e-5d1f0e2a7b11";
  WriteFile(job_dir / "JOURNAL", "recflow-commit-journal 1\nrename\tx");
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kAppend);
  ASSERT_FALSE(job.ok());
  EXPECT_EQ(job.status().code(), StatusCode::kDataError);
  EXPECT_NE(job.status().ToString().find("JOURNAL"), std::string::npos) << job.status().ToString();
}

}  // namespace
}  // namespace recflow::dataset
