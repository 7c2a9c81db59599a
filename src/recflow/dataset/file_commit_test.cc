// Tests for FileCommit: a side file replaces its target in one rename, or leaves it as it was.
#include "recflow/dataset/file_commit.h"

#include <gtest/gtest.h>

#include "recflow/core/fault_injecting_filesystem.h"
#include "recflow/core/memory_filesystem.h"

namespace recflow::dataset {
namespace {

class FileCommitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(memory_->CreateDirectory("/d").ok());
    ASSERT_TRUE(memory_->WriteSmallFile("/d/vocab.txt", "old\n", false).ok());
  }
  std::string Target() const { return std::string((*memory_->ReadWholeFile("/d/vocab.txt"))->view()); }

  std::shared_ptr<MemoryFileSystem> memory_ = std::make_shared<MemoryFileSystem>();
  std::shared_ptr<FaultInjectingFileSystem> faults_ = std::make_shared<FaultInjectingFileSystem>(memory_);
};

TEST_F(FileCommitTest, CommitReplacesTheTargetWithTheStagedFile) {
  auto commit = FileCommit::Begin(faults_, "/d/vocab.txt.staged", "/d/vocab.txt");
  ASSERT_TRUE(commit.ok()) << commit.status().ToString();
  ASSERT_TRUE(memory_->WriteSmallFile((*commit)->staged(), "new\n", false).ok());
  EXPECT_EQ(Target(), "old\n");
  ASSERT_TRUE((*commit)->Commit().ok());
  EXPECT_EQ(Target(), "new\n");
  EXPECT_EQ(*memory_->ListDirectory("/d"), std::vector<std::string>{"vocab.txt"});
}

TEST_F(FileCommitTest, AFailureAtAnyCallLeavesTheTargetAsItWasAndNoStagedFile) {
  for (int64_t n = 1;; ++n) {
    ASSERT_TRUE(memory_->WriteSmallFile("/d/vocab.txt", "old\n", false).ok());
    auto commit = FileCommit::Begin(faults_, "/d/vocab.txt.staged", "/d/vocab.txt");
    ASSERT_TRUE(commit.ok());
    ASSERT_TRUE(memory_->WriteSmallFile((*commit)->staged(), "new\n", false).ok());
    faults_->FailNth(std::nullopt, n);
    const Status st = (*commit)->Commit();
    commit->reset();
    const bool fired = faults_->fired();
    faults_->Clear();
    if (!fired) {
      ASSERT_TRUE(st.ok());
      break;
    }
    if (Target() == "new\n") {  // only the directory's fsync after the rename failed
      EXPECT_NE(st.message().find("cannot sync"), std::string::npos) << st.ToString();
      continue;
    }
    EXPECT_EQ(Target(), "old\n") << "call " << n;
    EXPECT_NE(st.message().find("/d/vocab.txt: cannot commit"), std::string::npos) << st.ToString();
    EXPECT_EQ(*memory_->ListDirectory("/d"), std::vector<std::string>{"vocab.txt"}) << "call " << n;
  }
}

TEST_F(FileCommitTest, AbortRemovesTheStagedFile) {
  auto commit = FileCommit::Begin(faults_, "/d/vocab.txt.staged", "/d/vocab.txt");
  ASSERT_TRUE(memory_->WriteSmallFile((*commit)->staged(), "new\n", false).ok());
  ASSERT_TRUE((*commit)->Abort().ok());
  EXPECT_EQ(Target(), "old\n");
  EXPECT_EQ(*memory_->ListDirectory("/d"), std::vector<std::string>{"vocab.txt"});
  EXPECT_EQ((*commit)->Commit().code(), StatusCode::kInvalidArgument);
}

TEST_F(FileCommitTest, AFileSystemWithoutAtomicRenameIsRefused) {
  FileSystemCapabilities object_store;
  object_store.atomic_rename = false;
  faults_->set_capabilities(object_store);
  auto commit = FileCommit::Begin(faults_, "/d/vocab.txt.staged", "/d/vocab.txt");
  ASSERT_EQ(commit.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(commit.status().message().find("no atomic rename"), std::string::npos) << commit.status().ToString();
}

}  // namespace
}  // namespace recflow::dataset
