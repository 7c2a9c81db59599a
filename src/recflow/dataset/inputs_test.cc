// Tests for ExpandInputs (files, recursive sorted directories, globs, hidden names, errors) and CanReopenInputs.
#include "recflow/dataset/inputs.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "recflow/testing/testdata.h"

namespace recflow {
namespace {

namespace fs = std::filesystem;

class InputsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* f : {"data/b.tfrecord", "data/a.tfrecord", "data/sub/c.tfrecord", "data/_SUCCESS",
                          "data/.a.tfrecord.crc", "data/_temporary/x.tfrecord", "data/.hidden/y.tfrecord",
                          "data/part-1.gz", "data/part-2.gz", "other.tfrecord"}) {
      const fs::path p = dir_.path() / f;
      fs::create_directories(p.parent_path());
      std::ofstream(p) << "x";
    }
  }
  std::string Path(const std::string& rel) const { return dir_.File(rel); }

  testing::ScratchDir dir_;
};

TEST_F(InputsTest, DirectoriesAreWalkedSortedSkippingHiddenNames) {
  auto files = ExpandInputs({Path("data")});
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  EXPECT_EQ(*files, (std::vector<std::string>{Path("data/a.tfrecord"), Path("data/b.tfrecord"),
                                              Path("data/part-1.gz"), Path("data/part-2.gz"),
                                              Path("data/sub/c.tfrecord")}));
}

TEST_F(InputsTest, ReadingNeverWrites) {
  // What an earlier recflow version left of a commit killed half way: its journal is not
  // replayed by a reader (nor by anything since), and nothing is created or removed.
  const fs::path job = dir_.path() / "data/_temporary/0b5e1bd6-4d1c-4c9e-8c4e-5d1f0e2a7b11";
  fs::create_directories(job / "backup");
  std::ofstream(job / "JOURNAL") << "recflow-commit-journal 1\nrename\tb.tfrecord\t_temporary%2Fx\nend\n";
  std::ofstream(dir_.path() / ".data.recflow-0b5e1bd6-4d1c-4c9e-8c4e-5d1f0e2a7b11.lock") << "";
  const auto snapshot = [&] {
    std::vector<std::string> paths;
    for (const auto& entry : fs::recursive_directory_iterator(dir_.path())) paths.push_back(entry.path().string());
    std::sort(paths.begin(), paths.end());
    return paths;
  };
  const std::vector<std::string> before = snapshot();
  auto files = ExpandInputs({Path("data")});
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  EXPECT_EQ(files->size(), 5u);
  EXPECT_EQ(snapshot(), before);
}

TEST_F(InputsTest, FilesAndDashPassThroughInOrder) {
  auto files = ExpandInputs({Path("other.tfrecord"), "-", Path("data/_SUCCESS")});
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  EXPECT_EQ(*files, (std::vector<std::string>{Path("other.tfrecord"), "-", Path("data/_SUCCESS")}));
}

TEST_F(InputsTest, GlobsExpandSortedAndSkipHiddenMatches) {
  auto files = ExpandInputs({Path("data/part-*.gz"), Path("data/*")});
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  EXPECT_EQ(*files, (std::vector<std::string>{Path("data/part-1.gz"), Path("data/part-2.gz"),
                                              Path("data/a.tfrecord"), Path("data/b.tfrecord"),
                                              Path("data/part-1.gz"), Path("data/part-2.gz"),
                                              Path("data/sub/c.tfrecord")}));
  auto explicit_hidden = ExpandInputs({Path("data/_SUC*")});
  ASSERT_TRUE(explicit_hidden.ok()) << explicit_hidden.status().ToString();
  EXPECT_EQ(*explicit_hidden, std::vector<std::string>{Path("data/_SUCCESS")});
}

TEST_F(InputsTest, MissingPathsAndEmptyPatternsAreNotFound) {
  auto missing = ExpandInputs({Path("data/nope.tfrecord")});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("nope.tfrecord"), std::string::npos);

  auto empty = ExpandInputs({Path("data/*.parquet")});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), StatusCode::kNotFound);
  EXPECT_NE(empty.status().message().find("*.parquet"), std::string::npos);
}

TEST_F(InputsTest, EmptyArgumentListGivesNoFiles) { EXPECT_TRUE(ExpandInputs({})->empty()); }

TEST_F(InputsTest, StandardInputAndFifosCannotBeReopenedFilesDirectoriesAndGlobsCan) {
  EXPECT_TRUE(CanReopenInputs({Path("other.tfrecord"), Path("data"), Path("data/*.gz"), Path("missing")}));
  EXPECT_FALSE(CanReopenInputs({Path("other.tfrecord"), "-"}));
  const std::string fifo = Path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(CanReopenInputs({fifo}));
  const std::string link = Path("link_to_fifo");
  fs::create_symlink(fifo, link);
  EXPECT_FALSE(CanReopenInputs({Path("data"), link}));
  EXPECT_FALSE(CanReopenInputs({"/dev/null"}));
}

}  // namespace
}  // namespace recflow
