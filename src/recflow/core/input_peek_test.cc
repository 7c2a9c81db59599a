// Tests for PeekInput: a pipe's head is read for detection and then read again by Open.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <future>
#include <string>
#include <thread>

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

TEST(PeekInputTest, APipeIsWaitedForOnlyUntilItsHeadIsEnough) {
  // A writer that sends two lines and then waits, like `tail -f x.jsonl`: the peek returns with
  // what arrived once `enough` accepts it, instead of waiting for n bytes or the end.
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string lines = "{\"a\": 1}\n{\"a\": 2}\n";
  ASSERT_EQ(::write(fds[1], lines.data(), lines.size()), static_cast<ssize_t>(lines.size()));
  const std::string path = "/dev/fd/" + std::to_string(fds[0]);
  auto enough = [](std::string_view head) { return head.find('\n') != std::string_view::npos; };
  auto peek = std::async(std::launch::async, [&] { return PeekInput(path, 1 << 16, enough); });
  // A bound on a hang, not a timing: the writer never closes before the peek returned.
  const bool returned = peek.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  const std::string more = "{\"a\": 3}\n";
  EXPECT_EQ(::write(fds[1], more.data(), more.size()), static_cast<ssize_t>(more.size()));
  ::close(fds[1]);  // lets a peek that is still blocked return, so the test ends
  ASSERT_TRUE(returned) << "PeekInput waited for the writer to close";
  EXPECT_EQ(*peek.get(), lines);
  auto in = FileInputStream::Open(path).ValueOrDie();
  EXPECT_EQ(ReadAll(*in), lines + more);  // the peeked lines, then the rest, once
  ::close(fds[0]);
}

TEST(PeekInputTest, PeekingOnePipeDoesNotBlockPeekingAnother) {
  // A writer that has sent nothing keeps its peek waiting; another input is peeked meanwhile
  // (no global lock is held while a read blocks).
  int quiet[2];
  ASSERT_EQ(::pipe(quiet), 0);
  const std::string quiet_path = "/dev/fd/" + std::to_string(quiet[0]);
  auto waiting = std::async(std::launch::async, [&] { return PeekInput(quiet_path, 16); });
  FilledPipe other("other bytes");
  auto peeked = std::async(std::launch::async, [&] { return PeekInput(other.path(), 5); });
  const bool returned = peeked.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
  ::close(quiet[1]);  // ends the waiting peek
  ASSERT_TRUE(returned) << "a peek of another input blocked";
  EXPECT_EQ(*peeked.get(), "other");
  EXPECT_EQ(*waiting.get(), "");
  // Taken, so that no kept stream outlives its pipe.
  EXPECT_TRUE(FileInputStream::Open(quiet_path).ok());
  EXPECT_TRUE(FileInputStream::Open(other.path()).ok());
  ::close(quiet[0]);
}

}  // namespace
}  // namespace recflow
