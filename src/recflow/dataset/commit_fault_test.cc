// Crash consistency of commits through injected faults: fail the Nth file system call of a job, for every N, over
// the in-memory and the local file system; the output is always the old dataset or the new one.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "recflow/core/fault_injecting_filesystem.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/core/memory_filesystem.h"
#include "recflow/dataset/commit.h"
#include "recflow/dataset/commit_testing.h"
#include "recflow/testing/testdata.h"

namespace recflow::dataset {
namespace {

using testing::Tree;

const Tree kOld = {{"_SUCCESS", ""},
                   {"label=0/part-00000-of-00003", "old0"},
                   {"label=1/part-00001-of-00003", "old1"},
                   {"label=2/part-00002-of-00003", std::string(3000, 'o')}};

/// The files a job writes: label=1 (replacing old data under overwrite-partitions) and label=3 (new).
const Tree kJobFiles = {{"label=1/job-0", "new0"}, {"label=1/job-1", std::string(2000, 'n')}, {"label=3/job-2", "new2"}};

/// The dataset before the job: none under error mode.
Tree Old(SaveMode mode) { return mode == SaveMode::kErrorIfExists ? Tree() : kOld; }

/// The dataset the job leaves under `mode`.
Tree Expected(SaveMode mode) { return testing::ExpectedAfter(mode, Old(mode), kJobFiles); }

/// Writes every file of `tree` under `root` on `fs`.
void WriteTree(FileSystem& fs, const std::string& root, const Tree& tree) {
  for (const auto& [rel, content] : tree) {
    const std::string path = root + "/" + rel;
    ASSERT_TRUE(fs.CreateDirectories(ParentPath(path)).ok()) << path;
    ASSERT_TRUE(fs.WriteSmallFile(path, content, false).ok()) << path;
  }
}

/// What a reader sees under `root`: every file but hidden ones (`_`/`.` names) except `_SUCCESS`.
Tree ReadAsAReader(FileSystem& fs, const std::string& root) {
  Tree tree;
  if (!*fs.Exists(root)) return tree;
  auto files = fs.ListFilesRecursively(root);
  EXPECT_TRUE(files.ok()) << files.status().ToString();
  for (const std::string& rel : *files) {
    const bool hidden = rel.front() == '_' || rel.front() == '.' || rel.find("/_") != std::string::npos ||
                        rel.find("/.") != std::string::npos;
    if (hidden && rel != kSuccessFileName) continue;
    tree[rel] = std::string((*fs.ReadWholeFile(root + "/" + rel))->view());
  }
  return tree;
}

/// One job: writes `files` through `fs` and commits them to `output` under `mode`, with fsyncs when `sync`.
Status RunJob(const std::shared_ptr<FileSystem>& fs, const std::string& output, SaveMode mode, const Tree& files,
              bool sync) {
  CommitOptions options = CommitOptions::Defaults();
  options.file_system = fs;
  options.sync = sync;
  ASSIGN_OR_RETURN(auto job, DatasetCommitter::Begin(output, mode, options));
  for (const auto& [rel, content] : files) {
    ASSIGN_OR_RETURN(std::string path, job->NewFilePath(rel));
    RETURN_NOT_OK(fs->WriteSmallFile(path, content, false));
  }
  return job->Commit();
}

/// One fault test: the file system under the faults, a save mode, RENAME_EXCHANGE or not, and
/// whether the failing call is the last one (a crash) or the only one (an error the job sees).
struct Case {
  bool memory;
  SaveMode mode;
  bool exchange;
  bool crash;
};

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  std::string name = info.param.memory ? "Memory" : "Local";
  for (char c : SaveModeName(info.param.mode)) {
    if (c != '-') name += c;
  }
  name += info.param.exchange ? "Exchange" : "NoExchange";
  name += info.param.crash ? "Crash" : "Error";
  return name;
}

class CommitFaultTest : public ::testing::TestWithParam<Case> {
 protected:
  recflow::testing::ScratchDir dir_;
};

TEST_P(CommitFaultTest, AFailureAtEveryCallLeavesTheOldOrTheNewDatasetAndTheNextCommitCleansUp) {
  const Case c = GetParam();
  int64_t failed_jobs = 0;
  for (int64_t n = 1;; ++n) {
    ASSERT_LT(n, 2000) << "the job never got past its injected fault";
    std::shared_ptr<FileSystem> base = LocalFileSystem::Instance();
    std::string parent = dir_.File("n" + std::to_string(n));
    if (c.memory) {
      base = std::make_shared<MemoryFileSystem>();
      parent = "/data";
    }
    ASSERT_TRUE(base->CreateDirectories(parent).ok());
    const std::string output = parent + "/out";
    if (c.mode != SaveMode::kErrorIfExists) WriteTree(*base, output, kOld);
    auto faults = std::make_shared<FaultInjectingFileSystem>(base);
    faults->set_exchange(c.exchange);
    if (c.crash) {
      faults->CrashAtNth(n);
    } else {
      faults->FailNth(std::nullopt, n);
    }
    // fsyncs of the local disk cost milliseconds each: the local cases leave them out (the
    // in-memory ones fail each of them).
    const Status st = RunJob(faults, output, c.mode, kJobFiles, c.memory);  // the committer is gone after this
    if (!faults->fired()) {
      ASSERT_TRUE(st.ok()) << st.ToString();
      EXPECT_EQ(ReadAsAReader(*base, output), Expected(c.mode));
      EXPECT_EQ(*base->ListDirectory(parent), std::vector<std::string>{"out"});
      break;
    }
    ++failed_jobs;
    // Every reader sees the old dataset or the new one. Only between the two renames of a swap
    // without RENAME_EXCHANGE is the output missing; the next writer then puts the old one back.
    Tree seen = ReadAsAReader(*base, output);
    const bool missing = !*base->Exists(output);
    if (missing && c.mode != SaveMode::kErrorIfExists) {
      ASSERT_FALSE(c.exchange) << "call " << n << ": the output vanished: " << st.ToString();
      seen = Old(c.mode);
    } else {
      ASSERT_TRUE(seen == Old(c.mode) || seen == Expected(c.mode)) << "call " << n << " (" << st.ToString() << ")";
    }
    if (st.ok()) EXPECT_EQ(seen, Expected(c.mode)) << "call " << n << " failed, yet the commit reported success";
    // The next writer (no faults) commits, and removes whatever the failed job left.
    faults->Clear();
    ASSERT_TRUE(RunJob(faults, output, SaveMode::kAppend, {{"label=9/next", "next"}}, c.memory).ok()) << "after call " << n;
    seen["label=9/next"] = "next";
    seen["_SUCCESS"] = "";
    EXPECT_EQ(ReadAsAReader(*base, output), seen) << "after call " << n;
    EXPECT_EQ(*base->ListDirectory(parent), std::vector<std::string>{"out"}) << "left after call " << n;
  }
  EXPECT_GT(failed_jobs, 20);
}

/// Every case in memory; on the local disk (where a mkdir costs up to a millisecond) the crashes
/// of the two save modes that keep entries, with and without RENAME_EXCHANGE.
std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (SaveMode mode :
       {SaveMode::kErrorIfExists, SaveMode::kOverwrite, SaveMode::kAppend, SaveMode::kOverwritePartitions}) {
    for (bool exchange : {true, false}) {
      for (bool crash : {false, true}) cases.push_back({true, mode, exchange, crash});
      if (KeepsEntries(mode)) cases.push_back({false, mode, exchange, true});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(EveryCall, CommitFaultTest, ::testing::ValuesIn(AllCases()), CaseName);

}  // namespace
}  // namespace recflow::dataset
