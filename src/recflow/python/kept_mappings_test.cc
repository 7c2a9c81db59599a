// KeptMappings: an unchanged file's mapping handed out again; a file rewritten, resized, replaced or removed mapped anew.
#include "recflow/python/kept_mappings.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "recflow/core/local_filesystem.h"
#include "recflow/testing/testdata.h"

namespace recflow::python {
namespace {

namespace fs = std::filesystem;

class KeptMappingsTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_.File(name);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    return path;
  }
  static std::string Text(const std::shared_ptr<Buffer>& buffer) {
    return std::string(reinterpret_cast<const char*>(buffer->data()), static_cast<size_t>(buffer->size()));
  }
  // Sets the file's modification time to `seconds` after the epoch.
  static void Touch(const std::string& path, time_t seconds) {
    const timespec times[2] = {{seconds, 0}, {seconds, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  }

  testing::ScratchDir dir_;
  KeptMappings files_{LocalFileSystem::Instance()};
};

TEST_F(KeptMappingsTest, AnUnchangedFileIsMappedOnce) {
  const std::string path = Write("a", "records");
  const std::shared_ptr<Buffer> first = *files_.MapFile(path);
  const std::shared_ptr<Buffer> second = *files_.MapFile(path);
  EXPECT_EQ(first.get(), second.get());
  EXPECT_EQ(Text(second), "records");
  EXPECT_EQ(files_.kept(), 1u);
}

TEST_F(KeptMappingsTest, AFileRewrittenOrReplacedIsMappedAgain) {
  const std::string path = Write("a", "records");
  Touch(path, 1000);
  const std::shared_ptr<Buffer> first = *files_.MapFile(path);
  Write("a", "RECORDS");  // same size, in place
  Touch(path, 2000);
  const std::shared_ptr<Buffer> rewritten = *files_.MapFile(path);
  EXPECT_NE(first.get(), rewritten.get());
  EXPECT_EQ(Text(rewritten), "RECORDS");
  Write("a", "more records");  // another size
  Touch(path, 2000);
  EXPECT_EQ(Text(*files_.MapFile(path)), "more records");
  const std::string other = Write("b", "replaced by a rename");
  Touch(other, 2000);
  fs::rename(other, path);  // another inode
  EXPECT_EQ(Text(*files_.MapFile(path)), "replaced by a rename");
  EXPECT_EQ(files_.kept(), 1u);
}

TEST_F(KeptMappingsTest, AMissingFileIsTheBasesError) {
  const std::string path = Write("a", "records");
  ASSERT_TRUE(files_.MapFile(path).ok());
  fs::remove(path);
  const Result<std::shared_ptr<Buffer>> missing = files_.MapFile(path);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find(path), std::string::npos);
}

TEST_F(KeptMappingsTest, AtMostKMaxKeptFilesAreKept) {
  for (size_t i = 0; i <= KeptMappings::kMaxKept; ++i) {
    ASSERT_TRUE(files_.MapFile(Write(std::to_string(i) + ".f", "x")).ok());
  }
  EXPECT_EQ(files_.kept(), 1u);  // the one more came after every slot was taken: the others were let go
}

TEST_F(KeptMappingsTest, AtMostKMaxKeptBytesAreKept) {
  // Sparse files: mapped, never read.
  const auto sparse = [&](const std::string& name, int64_t size) {
    const std::string path = Write(name, "");
    fs::resize_file(path, static_cast<uintmax_t>(size));
    return path;
  };
  const std::string big = sparse("big", KeptMappings::kMaxKeptBytes + 1);
  EXPECT_EQ((*files_.MapFile(big))->size(), KeptMappings::kMaxKeptBytes + 1);
  EXPECT_EQ(files_.kept(), 0u);  // larger than the bound: mapped per read
  const std::string first = sparse("first", KeptMappings::kMaxKeptBytes / 4 * 3);
  const std::string second = sparse("second", KeptMappings::kMaxKeptBytes / 4 * 3);
  const std::shared_ptr<Buffer> kept = *files_.MapFile(first);
  EXPECT_EQ((*files_.MapFile(first)).get(), kept.get());
  ASSERT_TRUE(files_.MapFile(second).ok());
  EXPECT_EQ(files_.kept(), 1u);  // both would pass the bound: the first was let go
  EXPECT_NE((*files_.MapFile(first)).get(), kept.get());
}

}  // namespace
}  // namespace recflow::python
