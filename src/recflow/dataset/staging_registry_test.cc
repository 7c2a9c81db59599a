// Tests for the registry of unfinished outputs: what a termination handler removes and reports (in forked children, as the registry stays locked).
#include "recflow/dataset/staging_registry.h"

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>

#include "recflow/core/fault_injecting_filesystem.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/dataset/commit.h"
#include "recflow/dataset/commit_testing.h"
#include "recflow/testing/testdata.h"

namespace recflow::dataset {
namespace {

namespace fs = std::filesystem;
using testing::ReadTree;
using testing::Tree;
using testing::WriteFile;
using testing::WriteTree;

/// Runs `body` in a forked child and returns its exit code (`body` returns it).
int InChild(const std::function<int()>& body) {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(body());
  int wstatus = 0;
  EXPECT_EQ(::waitpid(child, &wstatus, 0), child);
  return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
}

TEST(StagingRegistryTest, TerminationRemovesUnfinishedOutputsAndReportsCommittedOnes) {
  recflow::testing::ScratchDir dir;
  const Tree old = {{"_SUCCESS", ""}, {"k=1/part-0", "old"}};
  WriteTree(dir.path() / "kept", old);
  const int code = InChild([&] {
    auto unfinished = DatasetCommitter::Begin(dir.File("kept"), SaveMode::kOverwrite);
    auto fresh = DatasetCommitter::Begin(dir.File("new/deeper"), SaveMode::kErrorIfExists);
    auto done = DatasetCommitter::Begin(dir.File("done"), SaveMode::kErrorIfExists);
    if (!unfinished.ok() || !fresh.ok() || !done.ok()) return 10;
    WriteFile(*(*unfinished)->NewFilePath("k=2/part-0"), "new");
    WriteFile(*(*fresh)->NewFilePath("part-0"), "new");
    WriteFile(*(*done)->NewFilePath("part-0"), "done");
    if (!(*unfinished)->Prepare().ok() || !(*done)->Commit().ok()) return 11;
    StagingRegistration side_file(dir.File("vocab.txt"), LocalFileSystem::Instance());
    WriteFile(dir.File("vocab.txt.recflow-staged"), "a\nb\n");
    side_file.AddPath(dir.File("vocab.txt.recflow-staged"));
    StagingRegistration committed_side_file(dir.File("other.txt"), LocalFileSystem::Instance());
    if (!committed_side_file.Swap([] { return Status::OK(); }).ok()) return 12;
    const std::vector<std::string> lines = RemoveUnfinishedOutputs();
    const std::vector<std::string> expected = {
        "removed the unfinished output of '" + dir.File("kept") + "'; what was there is unchanged",
        "removed the unfinished output of '" + dir.File("new/deeper") + "'; what was there is unchanged",
        "removed the unfinished output of '" + dir.File("vocab.txt") + "'; what was there is unchanged",
        "'" + dir.File("other.txt") + "' was already committed"};
    ::_exit(lines == expected ? 0 : 13);  // as the handler does: no destructors
  });
  EXPECT_EQ(code, 0);
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir.path())) left.push_back(entry.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"done", "kept"})) << "staging, locks or created parents were left";
  EXPECT_EQ(ReadTree(dir.path() / "kept", false), old);
  EXPECT_EQ(ReadTree(dir.path() / "done", false), (Tree{{"_SUCCESS", ""}, {"part-0", "done"}}));
}

TEST(StagingRegistryTest, TerminationAfterAFailedSwapAndRollbackKeepsBothDatasets) {
  recflow::testing::ScratchDir dir;
  const Tree old = {{"_SUCCESS", ""}, {"k=1/part-0", "old"}};
  WriteTree(dir.path() / "out", old);
  const int code = InChild([&] {
    CommitOptions options = CommitOptions::Defaults();
    auto faults = std::make_shared<FaultInjectingFileSystem>(LocalFileSystem::Instance());
    faults->set_exchange(false);
    // Renames: the old dataset aside (done), the new one in and the old one back (both fail).
    faults->FailNth(FsOperation::kRename, 2, FsFault::kError, /*times=*/2);
    options.file_system = faults;
    auto job = DatasetCommitter::Begin(dir.File("out"), SaveMode::kOverwrite, std::move(options));
    if (!job.ok()) return 10;
    WriteFile(*(*job)->NewFilePath("k=2/part-0"), "new");
    if ((*job)->Commit().ok()) return 11;
    (void)RemoveUnfinishedOutputs();
    ::_exit(0);  // as the handler does: no destructors
  });
  ASSERT_EQ(code, 0);
  std::vector<std::string> left;
  for (const auto& entry : fs::directory_iterator(dir.path())) left.push_back(entry.path().filename().string());
  std::sort(left.begin(), left.end());
  ASSERT_EQ(left.size(), 3u);  // the staging tree, the old dataset aside, the job's lock file
  std::string aside, staged;
  for (const std::string& name : left) {
    if (name.ends_with(".old")) {
      aside = name;
    } else if (!name.ends_with(".lock")) {
      staged = name;
    }
  }
  ASSERT_FALSE(aside.empty());
  ASSERT_FALSE(staged.empty());
  EXPECT_EQ(ReadTree(dir.path() / aside, false), old);
  EXPECT_EQ(ReadTree(dir.path() / staged, false), (Tree{{"_SUCCESS", ""}, {"k=2/part-0", "new"}}));
}

}  // namespace
}  // namespace recflow::dataset
