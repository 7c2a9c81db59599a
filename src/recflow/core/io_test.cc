// Tests for file and memory streams, ReadFully and ReadWholeFile.
#include "recflow/core/io.h"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "recflow/testing/testdata.h"

namespace recflow {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>(i * 131 + i / 7);
  return s;
}

TEST(FileStreamTest, WriteThenReadRoundTripsLargeAndSmallWrites) {
  testing::ScratchDir dir;
  const std::string path = dir.File("out.bin");
  const std::string big = Pattern(3 << 20);
  {
    auto out = FileOutputStream::Open(path).ValueOrDie();
    ASSERT_TRUE(out->Write("head", 4).ok());
    ASSERT_TRUE(out->Write(big.data(), static_cast<int64_t>(big.size())).ok());
    for (int i = 0; i < 1000; ++i) ASSERT_TRUE(out->Write("x", 1).ok());
    EXPECT_EQ(out->position(), static_cast<int64_t>(4 + big.size() + 1000));
    out->set_sync_on_close(true);
    ASSERT_TRUE(out->Close().ok());
    EXPECT_TRUE(out->Close().ok());  // idempotent
    EXPECT_FALSE(out->Write("y", 1).ok());
  }
  const std::string expected = "head" + big + std::string(1000, 'x');
  EXPECT_EQ(Slurp(path), expected);

  auto in = FileInputStream::Open(path).ValueOrDie();
  EXPECT_EQ(in->name(), path);
  std::string got(expected.size() + 10, '\0');
  EXPECT_EQ(*ReadFully(*in, got.data(), static_cast<int64_t>(got.size())), static_cast<int64_t>(expected.size()));
  got.resize(expected.size());
  EXPECT_EQ(got, expected);
  EXPECT_EQ(in->position(), static_cast<int64_t>(expected.size()));
  char c;
  EXPECT_EQ(*in->Read(&c, 1), 0);
}

TEST(FileStreamTest, AppendAddsToTheEnd) {
  testing::ScratchDir dir;
  const std::string path = dir.File("a.txt");
  for (const char* part : {"one,", "two"}) {
    auto out = FileOutputStream::Open(path, /*append=*/true).ValueOrDie();
    ASSERT_TRUE(out->Write(part, static_cast<int64_t>(std::strlen(part))).ok());
    ASSERT_TRUE(out->Close().ok());
  }
  EXPECT_EQ(Slurp(path), "one,two");
}

TEST(FileStreamTest, DestructorFlushes) {
  testing::ScratchDir dir;
  const std::string path = dir.File("d.txt");
  { ASSERT_TRUE(FileOutputStream::Open(path).ValueOrDie()->Write("kept", 4).ok()); }
  EXPECT_EQ(Slurp(path), "kept");
}

TEST(FileStreamTest, ErrorsNameThePathAndReason) {
  testing::ScratchDir dir;
  auto missing = FileInputStream::Open(dir.File("nope"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find(dir.File("nope")), std::string::npos);
  EXPECT_NE(missing.status().message().find("No such file"), std::string::npos);

  auto bad_dir = FileOutputStream::Open(dir.File("no/such/dir/file"));
  ASSERT_FALSE(bad_dir.ok());
  EXPECT_NE(bad_dir.status().message().find("no/such/dir/file"), std::string::npos);

  EXPECT_FALSE(FileInputStream::Open(dir.path().string()).ok());
}

TEST(FileStreamTest, DashIsStdinAndStdout) {
  auto in = FileInputStream::Open("-").ValueOrDie();
  EXPECT_EQ(in->name(), "<stdin>");
  auto out = FileOutputStream::Open("-").ValueOrDie();
  EXPECT_EQ(out->name(), "<stdout>");
  ASSERT_TRUE(out->Close().ok());
  in.reset();
  // Neither standard stream was closed.
  EXPECT_NE(::fcntl(STDIN_FILENO, F_GETFD), -1);
  EXPECT_NE(::fcntl(STDOUT_FILENO, F_GETFD), -1);
}

TEST(BufferInputStreamTest, ReadsInPiecesAndStopsAtEnd) {
  BufferInputStream in(Buffer::FromString("abcdefgh"), "mem");
  EXPECT_EQ(in.name(), "mem");
  char buf[5] = {};
  EXPECT_EQ(*in.Read(buf, 5), 5);
  EXPECT_EQ(std::string(buf, 5), "abcde");
  EXPECT_EQ(*in.Read(buf, 5), 3);
  EXPECT_EQ(std::string(buf, 3), "fgh");
  EXPECT_EQ(*in.Read(buf, 5), 0);
  EXPECT_EQ(in.position(), 8);
}

TEST(ReadWholeFileTest, MapsRegularFilesAndReadsPipes) {
  testing::ScratchDir dir;
  const std::string path = dir.File("whole.bin");
  const std::string content = Pattern(200000);
  { std::ofstream(path, std::ios::binary) << content; }
  EXPECT_EQ((*ReadWholeFile(path))->view(), content);

  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string fifo_path = "/dev/fd/" + std::to_string(fds[0]);
  ASSERT_EQ(::write(fds[1], content.data(), 50000), 50000);
  ::close(fds[1]);
  auto piped = ReadWholeFile(fifo_path);
  ::close(fds[0]);
  ASSERT_TRUE(piped.ok()) << piped.status().ToString();
  EXPECT_EQ((*piped)->view(), content.substr(0, 50000));

  auto missing = ReadWholeFile(dir.File("missing"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
}

TEST(AppendWholeFileTest, AppendsFilesAfterEachOtherAndNothingOnError) {
  testing::ScratchDir dir;
  const std::string small = Pattern(300), large = Pattern(200000);
  { std::ofstream(dir.File("small.bin"), std::ios::binary) << small; }
  { std::ofstream(dir.File("large.bin"), std::ios::binary) << large; }
  { std::ofstream(dir.File("empty.bin"), std::ios::binary); }
  BufferBuilder out;
  ASSERT_TRUE(out.Append("head", 4).ok());
  EXPECT_EQ(AppendWholeFile(dir.File("small.bin"), out).ValueOrDie(), 300);
  EXPECT_EQ(AppendWholeFile(dir.File("empty.bin"), out).ValueOrDie(), 0);
  EXPECT_EQ(AppendWholeFile(dir.File("large.bin"), out).ValueOrDie(), 200000);
  const int64_t size = out.size();

  auto missing = AppendWholeFile(dir.File("missing"), out);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  auto directory = AppendWholeFile(dir.path().string(), out);
  EXPECT_EQ(directory.status().code(), StatusCode::kInvalidArgument);
  // Opens fine, then read(2) fails (address 0 is not mapped): the read is rolled back.
  auto unreadable = AppendWholeFile("/proc/self/mem", out);
  EXPECT_EQ(unreadable.status().code(), StatusCode::kIOError) << unreadable.status().ToString();
  auto over = AppendWholeFile(dir.File("small.bin"), out, 299);
  EXPECT_EQ(over.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(AppendWholeFile(dir.File("small.bin"), out, 300).ValueOrDie(), 300);
  EXPECT_EQ(out.size(), size + 300);
  EXPECT_EQ(out.Finish()->view(), "head" + small + large + small);
}

}  // namespace
}  // namespace recflow
