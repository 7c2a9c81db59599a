// Crash consistency of commits: SIGKILL a committing child after every step; the output, read before anything else runs, is old or new.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

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

/// At least this many kills per case, and at least one after every step and one never.
constexpr int kMinTrialsPerCase = 10;
constexpr int kFilesPerJob = 12;

const Tree kOld = {{"_SUCCESS", ""},
                   {"label=0/part-00000-of-00003", "old0"},
                   {"label=1/part-00001-of-00003", "old1"},
                   {"label=2/part-00002-of-00003", std::string(5000, 'o')}};

/// One crash test: a save mode, and whether the file system has RENAME_EXCHANGE.
struct Case {
  SaveMode mode;
  bool exchange;
};

/// The files the job writes: shards spread over partitions label=1 (replacing old data) and label=3 (new).
Tree JobFiles() {
  Tree files;
  for (int i = 0; i < kFilesPerJob; ++i) {
    const std::string dir = i % 2 == 0 ? "label=1/" : "label=3/";
    files[dir + "job-" + std::to_string(i)] = std::string(1000 + 97 * i, static_cast<char>('a' + i));
  }
  return files;
}

/// The dataset before the job: none under error mode.
Tree Old(SaveMode mode) { return mode == SaveMode::kErrorIfExists ? Tree() : kOld; }

/// The complete dataset the job should leave under `mode`.
Tree Expected(SaveMode mode) { return testing::ExpectedAfter(mode, Old(mode), JobFiles()); }

/// Runs the whole job on `output`. After staging and after every commit step it records the
/// step's name as the last line of `step_log` and calls `pause` (which returns when the job
/// may go on).
Status RunJob(const std::string& output, const Case& c, const std::string& step_log, const std::function<void()>& pause) {
  const auto after_step = [&](std::string_view step) {
    std::ofstream(step_log, std::ios::app) << step << "\n" << std::flush;
    pause();
  };
  CommitOptions options = CommitOptions::Defaults();
  options.after_step = after_step;
  auto file_system = std::make_shared<FaultInjectingFileSystem>(LocalFileSystem::Instance());
  file_system->set_exchange(c.exchange);
  options.file_system = file_system;
  ASSIGN_OR_RETURN(auto job, DatasetCommitter::Begin(output, c.mode, options));
  for (const auto& [rel, content] : JobFiles()) {
    ASSIGN_OR_RETURN(std::string path, job->NewFilePath(rel));
    WriteFile(path, content);
  }
  after_step("staged files written");
  return job->Commit();
}

/// The last step `step_log` records, "" when none.
std::string LastStep(const std::string& step_log) {
  std::ifstream in(step_log);
  std::string line, last;
  while (std::getline(in, line)) last = line;
  return last;
}

/// What a reader that globs data files sees: every file whose path has no `_`/`.` component,
/// plus `_SUCCESS` (to tell the two datasets' markers apart too).
Tree ReadAsAReader(const std::string& output) {
  Tree tree = ReadTree(output);
  std::erase_if(tree, [](const auto& entry) {
    const std::string& rel = entry.first;
    return rel != kSuccessFileName && (rel.front() == '_' || rel.front() == '.' || rel.find("/_") != std::string::npos ||
                                       rel.find("/.") != std::string::npos);
  });
  return tree;
}

/// Names beside `output` other than itself.
std::vector<std::string> Siblings(const std::string& output) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(fs::path(output).parent_path())) {
    if (entry.path() != fs::path(output)) names.push_back(entry.path().filename().string());
  }
  return names;
}

class CommitCrashTest : public ::testing::TestWithParam<Case> {
 protected:
  recflow::testing::ScratchDir dir_;
};

TEST_P(CommitCrashTest, KillAtEveryStepLeavesOldOrNewDatasetForEveryReader) {
  const Case c = GetParam();
  // How many steps the job has, so that the kills cover every one of them.
  const std::string calibration = dir_.File("calibration/out");
  WriteTree(calibration, Old(c.mode));
  int num_steps = 0;
  ASSERT_TRUE(RunJob(calibration, c, dir_.File("calibration.log"), [&] { ++num_steps; }).ok());
  ASSERT_EQ(ReadAsAReader(calibration), Expected(c.mode));
  const int trials = std::max(kMinTrialsPerCase, num_steps + 1);

  int saw_old = 0, saw_new = 0, saw_missing = 0, killed = 0;
  for (int trial = 0; trial < trials; ++trial) {
    const std::string output = dir_.File("trial" + std::to_string(trial) + "/out");
    const std::string step_log = dir_.File("trial" + std::to_string(trial) + ".log");
    fs::create_directories(fs::path(output).parent_path());
    WriteTree(output, Old(c.mode));
    int step_pipe[2], go_pipe[2];
    ASSERT_EQ(::pipe(step_pipe), 0);
    ASSERT_EQ(::pipe(go_pipe), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(step_pipe[0]);
      ::close(go_pipe[1]);
      char go = 0;
      const Status st = RunJob(output, c, step_log, [&] {
        (void)!::write(step_pipe[1], "s", 1);
        (void)!::read(go_pipe[0], &go, 1);
      });
      ::_exit(st.ok() ? 0 : 1);
    }
    ::close(step_pipe[1]);
    ::close(go_pipe[0]);
    // The child stops after each step until told to go on: kill it while it waits after step
    // `target` (1-based; past the last step it finishes).
    const int target = 1 + trial % (num_steps + 1);
    char byte = 0;
    for (int seen = 1; ::read(step_pipe[0], &byte, 1) == 1; ++seen) {
      if (seen == target) {
        ::kill(child, SIGKILL);
        break;
      }
      (void)!::write(go_pipe[1], "g", 1);
    }
    ::close(step_pipe[0]);
    ::close(go_pipe[1]);
    int wstatus = 0;
    ASSERT_EQ(::waitpid(child, &wstatus, 0), child);
    const std::string last_step = LastStep(step_log);
    if (WIFSIGNALED(wstatus)) {
      ++killed;
    } else {
      ASSERT_EQ(WEXITSTATUS(wstatus), 0) << "the child's job failed";
    }

    // Before anything else runs: the output is exactly the old or the new dataset. Without
    // RENAME_EXCHANGE it may also be missing (killed between the two renames).
    const Tree seen = ReadAsAReader(output);
    const bool missing = !fs::exists(output);
    ASSERT_TRUE(seen == Old(c.mode) || seen == Expected(c.mode) || (!c.exchange && missing))
        << "trial " << trial << " (killed after step '" << last_step << "'): a mixed dataset";
    if (missing && c.mode != SaveMode::kErrorIfExists) {
      ++saw_missing;
    } else {
      (seen == Expected(c.mode) ? saw_new : saw_old) += 1;
    }
    // The next writer removes what the killed job left (rolling a half-done fallback swap
    // back) and leaves the dataset as the reader saw it, or as it was before the job.
    auto next = DatasetCommitter::Begin(output, SaveMode::kAppend);
    ASSERT_TRUE(next.ok()) << "trial " << trial << ": " << next.status().ToString();
    ASSERT_TRUE((*next)->Abort().ok());
    const Tree after = ReadTree(output, false);
    EXPECT_TRUE(after == (missing ? Old(c.mode) : seen)) << "trial " << trial << " after '" << last_step << "'";
    EXPECT_EQ(Siblings(output), std::vector<std::string>()) << "trial " << trial << " after '" << last_step << "'";
  }
  std::printf("mode %s%s: %d steps, %d killed, %d old, %d new, %d missing\n", std::string(SaveModeName(c.mode)).c_str(),
              c.exchange ? "" : " (no RENAME_EXCHANGE)", num_steps, killed, saw_old, saw_new, saw_missing);
  EXPECT_GT(saw_old, 0) << "no kill landed before the swap";
  EXPECT_GT(saw_new, 0) << "no kill landed after the swap";
}

INSTANTIATE_TEST_SUITE_P(AllModes, CommitCrashTest,
                         ::testing::Values(Case{SaveMode::kErrorIfExists, true}, Case{SaveMode::kOverwrite, true},
                                           Case{SaveMode::kAppend, true}, Case{SaveMode::kOverwritePartitions, true},
                                           Case{SaveMode::kOverwrite, false}, Case{SaveMode::kAppend, false}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string name(SaveModeName(info.param.mode));
                           std::erase(name, '-');
                           return name + (info.param.exchange ? "" : "WithoutExchange");
                         });

}  // namespace
}  // namespace recflow::dataset
