// Tests for gathered writes: the iovec cursor resumes after any partial write, WritevAll splits at IOV_MAX, and
// every OutputStream's WriteGathered writes the pieces' concatenation.
#include "recflow/core/gathered_write.h"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

#include "recflow/core/io.h"
#include "recflow/testing/testdata.h"

namespace recflow {
namespace {

/// `count` pieces of sizes cycling through 0..`max_size`, their bytes a pattern, and their concatenation.
struct Pieces {
  std::vector<std::string> storage;
  std::vector<std::string_view> views;
  std::string joined;

  Pieces(size_t count, size_t max_size) {
    storage.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      std::string piece(i * 37 % (max_size + 1), '\0');
      for (char& c : piece) c = static_cast<char>((joined.size() + (&c - piece.data())) * 131 % 251);
      joined += piece;
      storage.push_back(std::move(piece));
    }
    for (const std::string& piece : storage) views.push_back(piece);
  }
};

/// The bytes the iovecs of `cursor.Next()` point at, concatenated.
std::string NextBytes(IovecCursor& cursor) {
  std::string bytes;
  for (const iovec& v : cursor.Next()) bytes.append(static_cast<const char*>(v.iov_base), v.iov_len);
  return bytes;
}

TEST(IovecCursorTest, AdvancingByAnyPartialCountResumesAtTheFirstByteNotWritten) {
  const Pieces pieces(10, 9);
  for (size_t step = 1; step <= pieces.joined.size(); ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    IovecCursor cursor;
    cursor.AddAll(pieces.views);
    EXPECT_EQ(cursor.remaining(), pieces.joined.size());
    std::string written;
    while (!cursor.done()) {
      const std::string next = NextBytes(cursor);
      EXPECT_EQ(next, pieces.joined.substr(written.size())) << "the iovecs are what is left, in order";
      written += next.substr(0, step);
      cursor.Advance(step);
      EXPECT_EQ(cursor.remaining(), pieces.joined.size() - std::min(written.size(), pieces.joined.size()));
    }
    EXPECT_EQ(written, pieces.joined);
    EXPECT_TRUE(cursor.Next().empty());
  }
}

TEST(IovecCursorTest, HandsOutAtMostIovMaxIovecsAndSkipsEmptyPieces) {
  const Pieces pieces(3 * IOV_MAX, 3);  // a quarter of them empty
  IovecCursor cursor;
  cursor.AddAll(pieces.views);
  EXPECT_EQ(cursor.Next().size(), static_cast<size_t>(IOV_MAX));
  for (const iovec& v : cursor.Next()) EXPECT_GT(v.iov_len, 0u);
}

TEST(WritevAllTest, WritesMoreThanIovMaxPiecesToAPipeInOrder) {
  const Pieces pieces(5 * IOV_MAX + 3, 300);  // several writev calls, more than a pipe's buffer
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  std::string got;
  std::thread reader([&] {
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof(buf))) > 0;) got.append(buf, static_cast<size_t>(n));
  });
  IovecCursor cursor;
  cursor.AddAll(pieces.views);
  const Status st = WritevAll(fds[1], "pipe", cursor);
  ::close(fds[1]);
  reader.join();
  ::close(fds[0]);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_TRUE(cursor.done());
  EXPECT_TRUE(got == pieces.joined);
}

TEST(WritevAllTest, AnErrorNamesTheOutputAndHowFarItGot) {
  IovecCursor cursor;
  cursor.Add("abc");
  const Status st = WritevAll(-1, "nowhere", cursor);
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("nowhere: cannot write 3 bytes (0 written)"), std::string::npos) << st.ToString();
}

TEST(PwritevAllTest, AnErrorNamesTheOutputAndTheOffset) {
  IovecCursor cursor;
  cursor.Add("abcd");
  const Status st = PwritevAll(-1, "nowhere", 4096, cursor);
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("nowhere: cannot write 4 bytes at offset 4096 (0 written)"), std::string::npos)
      << st.ToString();
}

TEST(FinishWritesTest, APipeThatCannotSyncClosesWithoutErrorAndABadDescriptorIsNamed) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ::close(fds[0]);
  EXPECT_TRUE(FinishWrites(fds[1], "pipe", /*sync=*/true, /*close_fd=*/true).ok());
  EXPECT_EQ(::fcntl(fds[1], F_GETFD), -1) << "the descriptor is closed";
  const Status st = FinishWrites(fds[1], "gone", /*sync=*/true, /*close_fd=*/true);
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("gone: cannot fsync: "), std::string::npos) << st.ToString();
  EXPECT_NE(FinishWrites(fds[1], "gone", /*sync=*/false, /*close_fd=*/true).message().find("gone: cannot close: "),
            std::string::npos);
}

TEST(WriteGatheredTest, AFileGetsThePiecesWhetherTheyFitItsBufferOrGoOutWithWritev) {
  testing::ScratchDir dir;
  const std::string path = dir.File("out.bin");
  const Pieces small(50, 100);                // fits the 1 MiB buffer: copied there
  const Pieces large(4 * IOV_MAX, 1200);      // about 2.4 MB in more than IOV_MAX pieces: writev
  {
    auto out = FileOutputStream::Open(path).ValueOrDie();
    ASSERT_TRUE(out->Write("head", 4).ok());
    ASSERT_TRUE(out->WriteGathered(small.views).ok());
    ASSERT_TRUE(out->WriteGathered(large.views).ok());
    ASSERT_TRUE(out->WriteGathered(small.views).ok());
    EXPECT_EQ(out->position(), static_cast<int64_t>(4 + 2 * small.joined.size() + large.joined.size()));
    ASSERT_TRUE(out->Close().ok());
    EXPECT_EQ(out->WriteGathered(small.views).code(), StatusCode::kIOError) << "a write after close";
  }
  EXPECT_TRUE((*ReadWholeFile(path))->view() == "head" + small.joined + large.joined + small.joined);
}

TEST(WriteGatheredTest, AMemoryBufferGetsThePiecesInOrder) {
  const Pieces pieces(2000, 500);
  BufferOutputStream out;
  ASSERT_TRUE(out.Write("x", 1).ok());
  ASSERT_TRUE(out.WriteGathered(pieces.views).ok());
  EXPECT_EQ(out.position(), static_cast<int64_t>(1 + pieces.joined.size()));
  EXPECT_TRUE(out.Finish()->view() == "x" + pieces.joined);
}

}  // namespace
}  // namespace recflow
