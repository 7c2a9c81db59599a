// Tests for PeekInput: a pipe's head is read for detection and then read again by Open.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "recflow/core/io.h"
#include "recflow/testing/testdata.h"

namespace recflow {
namespace {

std::string ReadAll(InputStream& in) {
  std::string out(1 << 16, '\0');
  const int64_t got = ReadFully(in, out.data(), static_cast<int64_t>(out.size())).ValueOrDie();
  out.resize(static_cast<size_t>(got));
  return out;
}

/// A pipe holding `content` (written whole, then closed), named by /dev/fd/N.
class FilledPipe {
 public:
  explicit FilledPipe(const std::string& content) {
    EXPECT_EQ(::pipe(fds_), 0);
    EXPECT_EQ(::write(fds_[1], content.data(), content.size()), static_cast<ssize_t>(content.size()));
    ::close(fds_[1]);
  }
  ~FilledPipe() { ::close(fds_[0]); }
  std::string path() const { return "/dev/fd/" + std::to_string(fds_[0]); }

 private:
  int fds_[2];
};

TEST(PeekInputTest, APipeIsReadAgainFromItsFirstByteAfterPeeking) {
  FilledPipe pipe("abcdefghij");
  EXPECT_EQ(*PeekInput(pipe.path(), 4), "abcd");
  EXPECT_EQ(*PeekInput(pipe.path(), 2), "ab");
  EXPECT_EQ(*PeekInput(pipe.path(), 8), "abcdefgh");  // reads more of the kept stream
  auto in = FileInputStream::Open(pipe.path()).ValueOrDie();
  char first[3];
  ASSERT_EQ(*in->Read(first, 3), 3);  // a read within the peeked bytes
  EXPECT_EQ(std::string(first, 3), "abc");
  EXPECT_EQ(ReadAll(*in), "defghij");
  EXPECT_EQ(in->position(), 10);
}

TEST(PeekInputTest, PeekingPastTheEndReturnsWhatThereIs) {
  FilledPipe pipe("xy");
  EXPECT_EQ(*PeekInput(pipe.path(), 100), "xy");
  auto in = FileInputStream::Open(pipe.path()).ValueOrDie();
  EXPECT_EQ(ReadAll(*in), "xy");
}

TEST(PeekInputTest, ARegularFileIsNotKeptOpen) {
  testing::ScratchDir dir;
  const std::string path = dir.File("f.bin");
  std::ofstream(path, std::ios::binary) << "0123456789";
  EXPECT_EQ(*PeekInput(path, 3), "012");
  auto in = FileInputStream::Open(path).ValueOrDie();
  EXPECT_EQ(in->regular_size(), 10);
  EXPECT_EQ(ReadAll(*in), "0123456789");
  EXPECT_FALSE(PeekInput(dir.File("missing"), 3).ok());
}

}  // namespace
}  // namespace recflow
