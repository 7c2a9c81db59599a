// Crash consistency of commits: SIGKILL a committing child at spread-out moments, recover, compare.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

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

constexpr int kTrialsPerMode = 8;
constexpr int kFilesPerJob = 12;
constexpr auto kStepDelay = std::chrono::milliseconds(2);

const Tree kOld = {{"_SUCCESS", ""},
                   {"label=0/part-00000-of-00003", "old0"},
                   {"label=1/part-00001-of-00003", "old1"},
                   {"label=2/part-00002-of-00003", std::string(5000, 'o')}};

/// The files the job writes: shards spread over partitions label=1 (replacing old data) and label=3 (new).
Tree JobFiles() {
  Tree files;
  for (int i = 0; i < kFilesPerJob; ++i) {
    const std::string dir = i % 2 == 0 ? "label=1/" : "label=3/";
    files[dir + "job-" + std::to_string(i)] = std::string(1000 + 97 * i, static_cast<char>('a' + i));
  }
  return files;
}

/// The complete dataset the job should leave under `mode`.
Tree Expected(SaveMode mode) {
  Tree expected = JobFiles();
  if (mode == SaveMode::kAppend) expected.insert(kOld.begin(), kOld.end());
  if (mode == SaveMode::kOverwritePartitions) {
    expected["label=0/part-00000-of-00003"] = kOld.at("label=0/part-00000-of-00003");
    expected["label=2/part-00002-of-00003"] = kOld.at("label=2/part-00002-of-00003");
  }
  expected["_SUCCESS"] = "";
  return expected;
}

/// Runs the whole job on `output`. Before Commit() and after every commit step it calls
/// `signal`, records the step's name as the last line of `step_log`, and sleeps a little.
Status RunSlowJob(const std::string& output, SaveMode mode, const std::string& step_log,
                  const std::function<void()>& signal) {
  const auto after_step = [&](std::string_view step) {
    std::ofstream(step_log, std::ios::app) << step << "\n" << std::flush;
    signal();
    std::this_thread::sleep_for(kStepDelay);
  };
  CommitOptions options = CommitOptions::Defaults();
  options.after_step = after_step;
  ASSIGN_OR_RETURN(auto job, DatasetCommitter::Begin(output, mode, options));
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

/// Recovery as a rerun does it: Begin (which recovers stale jobs) and Abort.
Status Recover(const std::string& output) {
  ASSIGN_OR_RETURN(auto job, DatasetCommitter::Begin(output, SaveMode::kAppend));
  return job->Abort();
}

class CommitCrashTest : public ::testing::TestWithParam<SaveMode> {
 protected:
  recflow::testing::ScratchDir dir_;
};

TEST_P(CommitCrashTest, KillAtAnyMomentLeavesOldOrNewDataset) {
  const SaveMode mode = GetParam();
  // How many steps the commit has, so that kills can be spread across all of them.
  const std::string calibration = dir_.File("calibration");
  WriteTree(calibration, kOld);
  int num_steps = 0;
  ASSERT_TRUE(RunSlowJob(calibration, mode, dir_.File("calibration.log"), [&] { ++num_steps; }).ok());
  ASSERT_EQ(ReadTree(calibration, false), Expected(mode));
  std::mt19937 random(static_cast<unsigned>(mode));

  int saw_old = 0, saw_new = 0, killed = 0, killed_mid_rename = 0;
  for (int trial = 0; trial < kTrialsPerMode; ++trial) {
    const std::string output = dir_.File("trial" + std::to_string(trial));
    const std::string step_log = output + ".log";
    WriteTree(output, kOld);
    int step_pipe[2];
    ASSERT_EQ(::pipe(step_pipe), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::close(step_pipe[0]);
      const Status st = RunSlowJob(output, mode, step_log, [&] { (void)!::write(step_pipe[1], "s", 1); });
      ::_exit(st.ok() ? 0 : 1);
    }
    ::close(step_pipe[1]);
    // Wait for step 1 + trial * num_steps / trials of the child (spreading the trials over the
    // whole commit), then kill it at a random moment within the next ~1.5 steps.
    const int target_step = 1 + trial * num_steps / kTrialsPerMode;
    char byte = 0;
    for (int seen = 0; seen < target_step && ::read(step_pipe[0], &byte, 1) == 1;) ++seen;
    ::close(step_pipe[0]);
    // Trial 0 kills at once, surely before the commit point (the child sleeps after signalling).
    const int delay_us = trial == 0 ? 0 : std::uniform_int_distribution<int>(0, 3000)(random);
    std::this_thread::sleep_for(std::chrono::microseconds(delay_us));
    ::kill(child, SIGKILL);
    int wstatus = 0;
    ASSERT_EQ(::waitpid(child, &wstatus, 0), child);
    const std::string last_step = LastStep(step_log);
    if (WIFSIGNALED(wstatus)) {
      ++killed;
      // Killed after the commit point with renames still to do: recovery must roll forward.
      if (last_step == "journal written" || last_step.starts_with("rename ")) ++killed_mid_rename;
    } else {
      ASSERT_EQ(WEXITSTATUS(wstatus), 0) << "the child's commit failed";
    }

    Tree after;
    for (int run = 0; run < 2; ++run) {  // the second run checks that recovery is idempotent
      const Status st = Recover(output);
      ASSERT_TRUE(st.ok()) << "trial " << trial << ": " << st.ToString();
      const Tree tree = ReadTree(output, false);
      EXPECT_FALSE(fs::exists(fs::path(output) / "_temporary")) << "trial " << trial;
      if (run == 0) {
        after = tree;
        ASSERT_TRUE(tree == kOld || tree == Expected(mode))
            << "trial " << trial << " (killed after step '" << last_step << "'): a mixed dataset";
      } else {
        EXPECT_EQ(tree, after) << "trial " << trial << ": recovery is not idempotent";
      }
    }
    (after == kOld ? saw_old : saw_new) += 1;
  }
  std::printf("mode %s: %d steps, %d killed (%d between renames), %d old, %d new\n",
              std::string(SaveModeName(mode)).c_str(), num_steps, killed, killed_mid_rename, saw_old, saw_new);
  EXPECT_GT(killed_mid_rename, 0) << "no kill landed while the renames were under way";
  EXPECT_GT(saw_old, 0) << "no kill landed before the commit point";
  EXPECT_GT(saw_new, 0) << "no kill landed after the commit point";
}

INSTANTIATE_TEST_SUITE_P(AllReplacingModes, CommitCrashTest,
                         ::testing::Values(SaveMode::kOverwrite, SaveMode::kAppend, SaveMode::kOverwritePartitions),
                         [](const ::testing::TestParamInfo<SaveMode>& info) {
                           std::string name(SaveModeName(info.param));
                           std::erase(name, '-');
                           return name;
                         });

}  // namespace
}  // namespace recflow::dataset
