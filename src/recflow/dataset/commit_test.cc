// Tests for the dataset commit protocol: save modes, staged path checks, hard links, collisions, locks, stale jobs.
#include "recflow/dataset/commit.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <thread>
#include <vector>

#include "recflow/core/fault_injecting_filesystem.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/core/memory_filesystem.h"
#include "recflow/dataset/commit_locks_internal.h"
#include "recflow/dataset/commit_testing.h"
#include "recflow/dataset/stale_jobs_internal.h"
#include "recflow/dataset/staging_names_internal.h"
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

const std::string kStaleJob = "0b5e1bd6-4d1c-4c9e-8c4e-5d1f0e2a7b11";

/// The inode of `path`, to tell a hard link from a copy.
ino_t Inode(const fs::path& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_ino;
}

class CommitTest : public ::testing::Test {
 protected:
  std::string Output() const { return dir_.File("out"); }

  /// Runs one job writing `files` (relative path -> content) under `mode`.
  Status RunJob(SaveMode mode, const Tree& files, CommitOptions options = CommitOptions::Defaults()) {
    ASSIGN_OR_RETURN(auto job, DatasetCommitter::Begin(Output(), mode, std::move(options)));
    for (const auto& [rel, content] : files) {
      ASSIGN_OR_RETURN(std::string path, job->NewFilePath(rel));
      WriteFile(path, content);
    }
    return job->Commit();
  }

  /// Names beside the output in its parent (staging trees and locks left behind).
  std::vector<std::string> Siblings() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_.path())) {
      if (entry.path().filename() != "out") names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }

  /// A stale job's names beside the output: its staging tree holding `staged`, and a lock file
  /// nobody holds.
  void MakeStaleJob(const Tree& staged) {
    WriteTree(dir_.path() / (".out.recflow-" + kStaleJob), staged);
    WriteFile(dir_.path() / (".out.recflow-" + kStaleJob + ".lock"), "");
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
  for (const std::string& bad :
       std::vector<std::string>{"", "/etc/passwd", "..", "../x", "a/../../x", ".", "./a", "a//b", "a/", "_SUCCESS",
                                "_recflow_schema.json", "_temporary/x", "a/.crc", std::string("a\nb"),
                                std::string("a\0b", 3), std::string(256, 'x')}) {
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

TEST_F(CommitTest, NewFilePathStagesInAHiddenSiblingAndTheOutputAppearsAtCommit) {
  CommitOptions options = CommitOptions::Defaults();
  options.job_id = "1f5b4d1a-2c3e-4b5a-9d8e-0123456789ab";
  auto job = DatasetCommitter::Begin(Output() + "/", SaveMode::kErrorIfExists, options);
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  EXPECT_EQ((*job)->job_id(), options.job_id);
  EXPECT_EQ((*job)->output(), Output());
  auto path = (*job)->NewFilePath("label=3/part-00000-of-00016.tfrecord.gz");
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  EXPECT_EQ(*path, dir_.File(".out.recflow-" + options.job_id + "/label=3/part-00000-of-00016.tfrecord.gz"));
  EXPECT_TRUE(fs::is_directory(fs::path(*path).parent_path()));
  EXPECT_FALSE(fs::exists(Output()));
  EXPECT_EQ((*job)->NewFilePath("../escape").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ((*job)->NewFilePath("/abs").status().code(), StatusCode::kInvalidArgument);
  WriteFile(*path, "x");
  ASSERT_TRUE((*job)->Commit().ok());
  EXPECT_EQ(ReadTree(Output()), (Tree{{"_SUCCESS", ""}, {"label=3/part-00000-of-00016.tfrecord.gz", "x"}}));
  EXPECT_TRUE(Siblings().empty());
}

TEST_F(CommitTest, ErrorModeWritesANewDatasetAndThenRefusesIt) {
  ASSERT_TRUE(RunJob(SaveMode::kErrorIfExists, {{"a/f1", "1"}, {"f2", "2"}}).ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"_SUCCESS", ""}, {"a/f1", "1"}, {"f2", "2"}}));
  auto again = DatasetCommitter::Begin(Output(), SaveMode::kErrorIfExists);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kAlreadyExists);
  EXPECT_NE(again.status().message().find(Output()), std::string::npos) << again.status().ToString();
}

TEST_F(CommitTest, ErrorModeTreatsALegacyTemporaryAsEmptyAndDropsIt) {
  WriteFile(fs::path(Output()) / "_temporary" / kStaleJob / "data" / "f", "staged by an old version");
  ASSERT_TRUE(RunJob(SaveMode::kErrorIfExists, {{"f", "new"}}).ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"_SUCCESS", ""}, {"f", "new"}}));
}

TEST_F(CommitTest, AnUnfinishedLegacyCommitIsRefusedByEveryModeButOverwrite) {
  // An earlier version was killed mid-commit: a mix of old and new files, no _SUCCESS.
  Tree mix = {{"label=0/part-00000-of-00002.tfrecord", "old0"},
              {"label=1/part-00000-of-00001.tfrecord", "new1"},
              {"_temporary/" + kStaleJob + "/JOURNAL", "recflow-commit-journal 1\n"},
              {"_temporary/" + kStaleJob + "/backup/label=1/part-00001-of-00002.tfrecord", "old1"}};
  WriteTree(Output(), mix);
  const std::string journal = Output() + "/_temporary/" + kStaleJob + "/JOURNAL";
  for (SaveMode mode : {SaveMode::kErrorIfExists, SaveMode::kAppend, SaveMode::kOverwritePartitions}) {
    const Status st = RunJob(mode, {{"label=2/f", "new"}});
    EXPECT_EQ(st.code(), StatusCode::kDataError) << SaveModeName(mode) << ": " << st.ToString();
    EXPECT_EQ(st.context().file, journal) << st.ToString();
    EXPECT_NE(st.message().find("--mode overwrite"), std::string::npos) << st.ToString();
    EXPECT_EQ(ReadTree(Output(), false), mix) << SaveModeName(mode);
    EXPECT_TRUE(Siblings().empty());
  }
  // Appearing after the job started, it is refused under the commit lock too.
  fs::remove_all(Output());
  WriteTree(Output(), kOld);
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kAppend);
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  WriteFile(*(*job)->NewFilePath("label=2/f"), "new");
  WriteFile(journal, "recflow-commit-journal 1\n");
  EXPECT_EQ((*job)->Commit().code(), StatusCode::kDataError);
  EXPECT_TRUE((*job)->Abort().ok());
  fs::remove_all(Output());
  WriteTree(Output(), mix);
  ASSERT_TRUE(RunJob(SaveMode::kOverwrite, {{"label=2/f", "new"}}).ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"_SUCCESS", ""}, {"label=2/f", "new"}}));
}

TEST_F(CommitTest, ErrorModeRefusesContentThatAppearedBeforeCommit) {
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kErrorIfExists);
  ASSERT_TRUE(job.ok());
  WriteFile((*(*job)->NewFilePath("f")), "new");
  WriteFile(fs::path(Output()) / "other", "someone else");
  EXPECT_EQ((*job)->Commit().code(), StatusCode::kAlreadyExists);
  EXPECT_TRUE((*job)->Abort().ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"other", "someone else"}}));
  EXPECT_TRUE(Siblings().empty());
}

TEST_F(CommitTest, OverwriteReplacesTheWholeDataset) {
  WriteTree(Output(), kOld);
  WriteFile(fs::path(Output()) / "stray.txt", "x");
  ASSERT_EQ(::chmod(Output().c_str(), 0750), 0);
  ASSERT_TRUE(RunJob(SaveMode::kOverwrite, {{"label=1/part-00000-of-00001.tfrecord", "new1"}}).ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"_SUCCESS", ""}, {"label=1/part-00000-of-00001.tfrecord", "new1"}}));
  EXPECT_EQ(fs::status(Output()).permissions() & fs::perms::all, fs::perms(0750));
  EXPECT_TRUE(Siblings().empty());
}

TEST_F(CommitTest, OverwriteOfAMissingOutputCreatesIt) {
  ASSERT_TRUE(RunJob(SaveMode::kOverwrite, {{"f", "1"}}).ok());
  EXPECT_EQ(ReadTree(Output()), (Tree{{"_SUCCESS", ""}, {"f", "1"}}));
}

TEST_F(CommitTest, AppendAddsFilesAndKeepsTheOldOnesAsHardLinks) {
  WriteTree(Output(), kOld);
  WriteFile(fs::path(Output()) / "label=0/.part-00000-of-00002.tfrecord.crc", "crc");
  const ino_t old0 = Inode(fs::path(Output()) / "label=0/part-00000-of-00002.tfrecord");
  ASSERT_TRUE(RunJob(SaveMode::kAppend, {{"label=1/part-00000-x.tfrecord", "a1"}, {"label=2/part-00000-x.tfrecord", "a2"}})
                  .ok());
  Tree expected = kOld;
  expected["label=0/.part-00000-of-00002.tfrecord.crc"] = "crc";
  expected["label=1/part-00000-x.tfrecord"] = "a1";
  expected["label=2/part-00000-x.tfrecord"] = "a2";
  EXPECT_EQ(ReadTree(Output(), false), expected);
  EXPECT_EQ(Inode(fs::path(Output()) / "label=0/part-00000-of-00002.tfrecord"), old0) << "copied, not linked";
  EXPECT_TRUE(Siblings().empty());
}

TEST_F(CommitTest, AppendCollisionChangesNothing) {
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
  EXPECT_TRUE(Siblings().empty());
}

TEST_F(CommitTest, AppendRefusesAFileWhereADirectoryMustGo) {
  WriteTree(Output(), {{"label=0", "a file"}});
  EXPECT_EQ(RunJob(SaveMode::kAppend, {{"label=0/f", "x"}}).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"label=0", "a file"}}));
  WriteTree(Output(), {{"label=1/f", "a directory"}});
  EXPECT_EQ(RunJob(SaveMode::kAppend, {{"label=1", "x"}}).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"label=0", "a file"}, {"label=1/f", "a directory"}}));
}

TEST_F(CommitTest, OverwritePartitionsReplacesOnlyWrittenPartitions) {
  Tree old = kOld;
  old["label=2/x=1/f"] = "old2";
  WriteTree(Output(), old);
  const ino_t old2 = Inode(fs::path(Output()) / "label=2/x=1/f");
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
  EXPECT_EQ(Inode(fs::path(Output()) / "label=2/x=1/f"), old2) << "copied, not linked";
}

TEST_F(CommitTest, OverwritePartitionsWithTopLevelFilesOverwritesAll) {
  WriteTree(Output(), kOld);
  ASSERT_TRUE(RunJob(SaveMode::kOverwritePartitions, {{"part-00000-of-00001", "flat"}}).ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"_SUCCESS", ""}, {"part-00000-of-00001", "flat"}}));
}

TEST_F(CommitTest, AppendDropsALegacyTemporary) {
  Tree old = kOld;
  old["_temporary/" + kStaleJob + "/data/label=5/f"] = "half committed by an old version";
  WriteTree(Output(), old);
  ASSERT_TRUE(RunJob(SaveMode::kAppend, {{"label=5/g", "new"}}).ok());
  Tree expected = kOld;
  expected["label=5/g"] = "new";
  EXPECT_EQ(ReadTree(Output(), false), expected);
}

TEST_F(CommitTest, DestructorAbortsAndAFailedJobRemovesTheDirectoriesItCreated) {
  WriteTree(Output(), kOld);
  {
    auto job = DatasetCommitter::Begin(Output(), SaveMode::kOverwrite);
    ASSERT_TRUE(job.ok());
    WriteFile(*(*job)->NewFilePath("f"), "never committed");
  }
  EXPECT_EQ(ReadTree(Output(), false), kOld);
  EXPECT_TRUE(Siblings().empty());
  const std::string deep = dir_.File("a/b/out");
  {
    auto job = DatasetCommitter::Begin(deep, SaveMode::kErrorIfExists);
    ASSERT_TRUE(job.ok());
    EXPECT_TRUE(fs::is_directory(dir_.path() / "a/b"));
    WriteFile(*(*job)->NewFilePath("f"), "never committed");
    EXPECT_TRUE((*job)->Abort().ok());
  }
  EXPECT_FALSE(fs::exists(dir_.path() / "a"));
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

TEST_F(CommitTest, AMountPointIsRefusedBeforeAnythingIsWritten) {
  struct stat proc {}, root {};
  if (::stat("/proc", &proc) != 0 || ::stat("/", &root) != 0 || proc.st_dev == root.st_dev) {
    GTEST_SKIP() << "no /proc mount point";
  }
  auto job = DatasetCommitter::Begin("/proc", SaveMode::kOverwrite);
  ASSERT_FALSE(job.ok());
  EXPECT_EQ(job.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(job.status().message().find("mount point"), std::string::npos) << job.status().ToString();
}

TEST_F(CommitTest, ASymlinkedOutputCommitsToItsTarget) {
  WriteTree(dir_.path() / "real", kOld);
  fs::create_directory_symlink("real", Output());
  ASSERT_TRUE(RunJob(SaveMode::kOverwrite, {{"f", "new"}}).ok());
  EXPECT_TRUE(fs::is_symlink(Output()));
  EXPECT_EQ(ReadTree(dir_.path() / "real", false), (Tree{{"_SUCCESS", ""}, {"f", "new"}}));
}

/// A file system over the local one without RENAME_EXCHANGE (as some network file systems).
std::shared_ptr<FaultInjectingFileSystem> LocalWithoutExchange() {
  auto fs = std::make_shared<FaultInjectingFileSystem>(LocalFileSystem::Instance());
  fs->set_exchange(false);
  return fs;
}

TEST_F(CommitTest, WithoutRenameExchangeTheOutputIsMissingBetweenTwoRenamesOnly) {
  WriteTree(Output(), kOld);
  CommitOptions options = CommitOptions::Defaults();
  options.file_system = LocalWithoutExchange();
  std::vector<std::string> steps;
  options.after_step = [&](std::string_view step) {
    steps.emplace_back(step);
    if (step == "old dataset moved aside") {
      EXPECT_FALSE(fs::exists(Output()));
    } else if (step != "swapped" && step != "old dataset removed") {
      EXPECT_EQ(ReadTree(Output()), kOld) << step;
    }
  };
  ASSERT_TRUE(RunJob(SaveMode::kAppend, {{"label=2/f", "new"}}, options).ok());
  EXPECT_NE(std::find(steps.begin(), steps.end(), "old dataset moved aside"), steps.end());
  Tree expected = kOld;
  expected["label=2/f"] = "new";
  EXPECT_EQ(ReadTree(Output(), false), expected);
  EXPECT_TRUE(Siblings().empty());
}

TEST_F(CommitTest, AFallbackSwapWhoseRollbackFailsRemovesNeitherTreeAndTheNextWriterPutsTheOldBack) {
  WriteTree(Output(), kOld);
  CommitOptions options = CommitOptions::Defaults();
  const std::shared_ptr<FaultInjectingFileSystem> faults = LocalWithoutExchange();
  options.file_system = faults;
  // Renames: the old dataset aside (done), the new one in (fails), the old one back (fails too).
  faults->FailNth(FsOperation::kRename, 2, FsFault::kError, /*times=*/2);
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kAppend, std::move(options));
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  const std::string staging = (*job)->staging_dir();
  const std::string aside = staging + ".old";
  WriteFile(*(*job)->NewFilePath("label=2/f"), "new");
  const Status st = (*job)->Commit();
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("the old dataset is intact at '" + aside + "'"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("Move '" + aside + "' back to '"), std::string::npos) << st.ToString();
  EXPECT_TRUE((*job)->Abort().ok());
  job->reset();
  faults->Clear();
  EXPECT_FALSE(fs::exists(Output()));
  EXPECT_EQ(ReadTree(aside, false), kOld);
  Tree staged = kOld;
  staged["label=2/f"] = "new";
  EXPECT_EQ(ReadTree(staging, false), staged);
  // The next writer takes the job for a killed one: the old dataset goes back, then its commit.
  ASSERT_TRUE(RunJob(SaveMode::kAppend, {{"label=3/g", "next"}}).ok());
  Tree expected = kOld;
  expected["label=3/g"] = "next";
  EXPECT_EQ(ReadTree(Output(), false), expected);
  EXPECT_TRUE(Siblings().empty());
}

TEST_F(CommitTest, AnOldDatasetLeftAsideIsNeverRemovedWhenItCannotGoBack) {
  // A swap without RENAME_EXCHANGE stopped between its renames; then someone made the output again.
  WriteTree(dir_.path() / (".out.recflow-" + kStaleJob + ".old"), kOld);
  WriteTree(dir_.path() / (".out.recflow-" + kStaleJob), {{"f", "new"}});
  WriteFile(dir_.path() / (".out.recflow-" + kStaleJob + ".lock"), "");
  WriteTree(Output(), {{"x", "someone else's"}});
  const Status st = RunJob(SaveMode::kOverwrite, {{"g", "next"}});
  EXPECT_EQ(st.code(), StatusCode::kIOError) << st.ToString();
  EXPECT_NE(st.message().find(".out.recflow-" + kStaleJob + ".old', which cannot be moved back"), std::string::npos)
      << st.ToString();
  EXPECT_EQ(ReadTree(dir_.path() / (".out.recflow-" + kStaleJob + ".old"), false), kOld);
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"x", "someone else's"}}));
}

TEST_F(CommitTest, AFallbackSwapWhoseRollbackWorksLeavesTheOldDataset) {
  WriteTree(Output(), kOld);
  CommitOptions options = CommitOptions::Defaults();
  const std::shared_ptr<FaultInjectingFileSystem> faults = LocalWithoutExchange();
  faults->FailNth(FsOperation::kRename, 2);  // the new dataset in (after the old one aside)
  options.file_system = faults;
  EXPECT_FALSE(RunJob(SaveMode::kAppend, {{"label=2/f", "new"}}, options).ok());
  EXPECT_EQ(ReadTree(Output(), false), kOld);
  EXPECT_TRUE(Siblings().empty());
}

TEST_F(CommitTest, AJobLockTakenForAStaleOneBeforeItIsLockedIsCreatedAgain) {
  fs::create_directory(Output());
  FileSystem& local = *LocalFileSystem::Instance();
  auto paths = internal::OutputPaths::For(local, Output());
  ASSERT_TRUE(paths.ok());
  const std::string lock_path = paths->JobLockPath(kStaleJob);
  int created = 0;
  // Another writer's stale-job sweep runs between the creation of the lock file and its flock.
  auto lock = internal::JobLock::Create(local, lock_path, [&] {
    if (created++ == 0) {
      EXPECT_TRUE(internal::RemoveStaleJobs(local, *paths).ok());
    }
  });
  ASSERT_TRUE(lock.ok()) << lock.status().ToString();
  EXPECT_EQ(created, 2);
  EXPECT_TRUE(lock->held());
  ASSERT_TRUE(fs::exists(lock_path));
  auto other = internal::JobLock::TryAcquire(local, lock_path);
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  EXPECT_FALSE(other->held());  // the live job's lock, not a stale one
}

TEST_F(CommitTest, AfterAFailedPrepareTheJobCanOnlyBeAborted) {
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kErrorIfExists);
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  WriteFile(*(*job)->NewFilePath("f"), "new");
  WriteTree(Output(), kOld);  // committed by someone else meanwhile
  EXPECT_EQ((*job)->Prepare().code(), StatusCode::kAlreadyExists);
  // Still holding the output's commit lock: a second attempt must not wait for it (forever).
  const Status again = (*job)->Prepare();
  EXPECT_EQ(again.code(), StatusCode::kInvalidArgument) << again.ToString();
  EXPECT_NE(again.message().find("can only be aborted"), std::string::npos) << again.ToString();
  EXPECT_EQ((*job)->Commit().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE((*job)->NewFilePath("g").ok());
  EXPECT_TRUE((*job)->Abort().ok());
  EXPECT_EQ(ReadTree(Output(), false), kOld);
  EXPECT_TRUE(Siblings().empty());
}

TEST(OutputPathsTest, LongNamesSharingTheirStartDoNotShareStagingNames) {
  const std::string start(200, 'a');
  auto one = internal::OutputPaths::For(*LocalFileSystem::Instance(), "/d/" + start + "-one");
  auto two = internal::OutputPaths::For(*LocalFileSystem::Instance(), "/d/" + start + "-two");
  ASSERT_TRUE(one.ok() && two.ok());
  EXPECT_NE(one->stem, two->stem);
  EXPECT_NE(one->OutputLockPath(), two->OutputLockPath());
  const std::string staged_name = fs::path(one->Staging(kStaleJob)).filename().string();
  EXPECT_EQ(one->JobOf(staged_name), kStaleJob);
  EXPECT_EQ(two->JobOf(staged_name), std::nullopt);
  EXPECT_LE((staged_name + ".old.removing").size(), 255u);
  auto again = internal::OutputPaths::For(*LocalFileSystem::Instance(), "/d/" + start + "-one");
  EXPECT_EQ(again->stem, one->stem);  // the same output, the same names in every process
  auto short_name = internal::OutputPaths::For(*LocalFileSystem::Instance(), "/d/out");
  EXPECT_EQ(short_name->stem, "/d/.out.recflow-");
}

TEST_F(CommitTest, ConcurrentAppendsKeepEachOthersFiles) {
  WriteTree(Output(), kOld);
  constexpr int kWriters = 6;
  std::vector<Status> results(kWriters);
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      results[static_cast<size_t>(w)] = RunJob(SaveMode::kAppend, {{"label=" + std::to_string(w % 3) + "/w" + std::to_string(w), "x"}});
    });
  }
  for (std::thread& t : threads) t.join();
  Tree expected = kOld;
  for (int w = 0; w < kWriters; ++w) {
    EXPECT_TRUE(results[static_cast<size_t>(w)].ok()) << results[static_cast<size_t>(w)].ToString();
    expected["label=" + std::to_string(w % 3) + "/w" + std::to_string(w)] = "x";
  }
  EXPECT_EQ(ReadTree(Output(), false), expected);
  EXPECT_TRUE(Siblings().empty());
}

TEST_F(CommitTest, StaleJobsAreRemovedByTheNextWriterAndLiveJobsKept) {
  WriteTree(Output(), kOld);
  MakeStaleJob({{"label=0/part-00000-of-00002.tfrecord", "partial"}});
  // Leftovers of a job that was killed after its lock file was removed... cannot happen, but
  // names without any lock file are never a live job's.
  const std::string orphan = "1f5b4d1a-2c3e-4b5a-9d8e-0123456789ab";
  WriteFile(dir_.path() / (".out.recflow-" + orphan + ".removing/f"), "being removed");
  // Names that are not recflow's stay.
  WriteFile(dir_.path() / ".out.recflow-notajob", "someone's");
  auto live = DatasetCommitter::Begin(Output(), SaveMode::kAppend);
  ASSERT_TRUE(live.ok()) << live.status().ToString();
  EXPECT_EQ(Siblings(), (std::vector<std::string>{".out.recflow-" + (*live)->job_id(),
                                                  ".out.recflow-" + (*live)->job_id() + ".lock",
                                                  ".out.recflow-notajob"}));
  WriteFile(*(*live)->NewFilePath("label=5/f"), "live");

  auto other = DatasetCommitter::Begin(Output(), SaveMode::kAppend);
  ASSERT_TRUE(other.ok()) << other.status().ToString();
  EXPECT_TRUE(fs::exists((*live)->staging_dir() + "/label=5/f")) << "a live job was cleaned";
  ASSERT_TRUE((*other)->Abort().ok());
  ASSERT_TRUE((*live)->Commit().ok());
  Tree expected = kOld;
  expected["label=5/f"] = "live";
  EXPECT_EQ(ReadTree(Output(), false), expected);
}

TEST_F(CommitTest, APreparedJobHoldsTheOutputLockUntilItCommits) {
  WriteTree(Output(), kOld);
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kAppend);
  ASSERT_TRUE(job.ok());
  WriteFile(*(*job)->NewFilePath("label=2/f"), "new");
  ASSERT_TRUE((*job)->Prepare().ok());
  EXPECT_EQ(ReadTree(Output(), false), kOld) << "Prepare touched the output";
  const std::string lock = dir_.File(".out.recflow-lock");
  const int fd = ::open(lock.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  EXPECT_NE(::flock(fd, LOCK_EX | LOCK_NB), 0) << "another writer could link the dataset before the swap";
  EXPECT_EQ(errno, EWOULDBLOCK);
  ::close(fd);
  ASSERT_TRUE((*job)->Commit().ok());
  EXPECT_FALSE(fs::exists(lock));
}

TEST_F(CommitTest, AFallbackSwapKilledBetweenItsRenamesIsRolledBack) {
  // Killed after moving the old dataset aside, before moving the staging tree in.
  MakeStaleJob({{"_SUCCESS", ""}, {"f", "new"}});
  WriteTree(dir_.path() / (".out.recflow-" + kStaleJob + ".old"), kOld);
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kAppend);
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  ASSERT_TRUE((*job)->Abort().ok());
  EXPECT_EQ(ReadTree(Output(), false), kOld);
  EXPECT_TRUE(Siblings().empty());
}

TEST_F(CommitTest, AStaleOldTreeAfterACompletedFallbackSwapIsDeleted) {
  // Killed after both renames: the output is the new dataset, the old one lies aside.
  WriteTree(Output(), {{"_SUCCESS", ""}, {"f", "new"}});
  WriteTree(dir_.path() / (".out.recflow-" + kStaleJob + ".old"), kOld);
  WriteFile(dir_.path() / (".out.recflow-" + kStaleJob + ".lock"), "");
  auto job = DatasetCommitter::Begin(Output(), SaveMode::kAppend);
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  ASSERT_TRUE((*job)->Abort().ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"_SUCCESS", ""}, {"f", "new"}}));
  EXPECT_TRUE(Siblings().empty());
}

TEST_F(CommitTest, AFileSystemThatCannotCommitSafelyIsRefusedBeforeAnythingIsWritten) {
  WriteTree(Output(), kOld);
  auto object_store = std::make_shared<FaultInjectingFileSystem>(LocalFileSystem::Instance());
  FileSystemCapabilities none;
  none.atomic_rename = none.directories = none.locks = none.hard_links = none.exchange = false;
  object_store->set_capabilities(none);
  CommitOptions options = CommitOptions::Defaults();
  options.file_system = object_store;
  const Status st = RunJob(SaveMode::kOverwrite, {{"f", "new"}}, options);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("lacks an atomic no-replace rename, directories, locks"), std::string::npos)
      << st.ToString();
  EXPECT_NE(st.message().find("manifest-based commit"), std::string::npos) << st.ToString();
  EXPECT_EQ(object_store->calls(), 0) << "the refused job touched the file system";
  // Without hard links, the save modes that keep files are refused; overwrite is not.
  auto no_links = std::make_shared<FaultInjectingFileSystem>(LocalFileSystem::Instance());
  FileSystemCapabilities links_hidden;
  links_hidden.hard_links = false;
  no_links->set_capabilities(links_hidden);
  options.file_system = no_links;
  EXPECT_EQ(RunJob(SaveMode::kAppend, {{"label=2/f", "new"}}, options).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadTree(Output(), false), kOld);
  ASSERT_TRUE(RunJob(SaveMode::kOverwrite, {{"f", "new"}}, options).ok());
  EXPECT_EQ(ReadTree(Output(), false), (Tree{{"_SUCCESS", ""}, {"f", "new"}}));
}

TEST_F(CommitTest, TheCommitRunsOnTheInMemoryFileSystem) {
  auto memory = std::make_shared<MemoryFileSystem>();
  ASSERT_TRUE(memory->CreateDirectories("/data/out/label=0").ok());
  ASSERT_TRUE(memory->WriteSmallFile("/data/out/label=0/old", "old", false).ok());
  CommitOptions options = CommitOptions::Defaults();
  options.file_system = memory;
  auto job = DatasetCommitter::Begin("/data/out", SaveMode::kAppend, options);
  ASSERT_TRUE(job.ok()) << job.status().ToString();
  ASSERT_TRUE(memory->WriteSmallFile(*(*job)->NewFilePath("label=1/new"), "new", false).ok());
  ASSERT_TRUE((*job)->Commit().ok());
  EXPECT_EQ(*memory->ListFilesRecursively("/data/out"), (std::vector<std::string>{"_SUCCESS", "label=0/old", "label=1/new"}));
  EXPECT_EQ(*memory->ListDirectory("/data"), std::vector<std::string>{"out"});
  EXPECT_FALSE(fs::exists("/data/out")) << "the in-memory commit touched the local disk";
}

}  // namespace
}  // namespace recflow::dataset
