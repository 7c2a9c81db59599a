// Tests for the FileSystem implementations: the local, the in-memory and a forwarding one answer every verb alike;
// the fault-injecting one fails exactly the call asked for.
#include "recflow/core/filesystem.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <future>
#include <thread>

#include "recflow/core/fault_injecting_filesystem.h"
#include "recflow/core/forwarding_filesystem.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/core/local_filesystem_internal.h"
#include "recflow/core/memory_filesystem.h"
#include "recflow/testing/testdata.h"

namespace recflow {
namespace {

/// The file systems every FileSystemTest runs on.
enum class Kind { kLocal, kMemory, kForwarding };

/// Runs each test on the local file system (in a scratch directory), the in-memory one, and a ForwardingFileSystem
/// over the local one (each verb must reach its base unchanged).
class FileSystemTest : public ::testing::TestWithParam<Kind> {
 protected:
  void SetUp() override {
    if (GetParam() == Kind::kMemory) {
      fs_ = std::make_shared<MemoryFileSystem>();
      root_ = "/root";
      ASSERT_TRUE(fs_->CreateDirectory(root_).ok());
      return;
    }
    fs_ = LocalFileSystem::Instance();
    if (GetParam() == Kind::kForwarding) fs_ = std::make_shared<ForwardingFileSystem>(fs_);
    root_ = scratch_.path().string();
  }
  std::string Path(const std::string& rel) const { return root_ + "/" + rel; }
  std::string Read(const std::string& rel) const { return std::string((*fs_->ReadWholeFile(Path(rel)))->view()); }

  recflow::testing::ScratchDir scratch_;
  std::shared_ptr<FileSystem> fs_;
  std::string root_;
};

TEST_P(FileSystemTest, WritesReadsWholeFilesRangesAndStreams) {
  ASSERT_TRUE(fs_->WriteSmallFile(Path("f"), "hello world", true).ok());
  EXPECT_EQ(Read("f"), "hello world");
  EXPECT_EQ((*fs_->ReadRange(Path("f"), 6, 100))->view(), "world");
  EXPECT_EQ((*fs_->ReadRange(Path("f"), 20, 5))->size(), 0);
  WriteOptions append;
  append.append = true;
  auto out = fs_->OpenOutputStream(Path("f"), append);
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE((*out)->Write("!", 1).ok());
  ASSERT_TRUE((*out)->Close().ok());
  auto in = fs_->OpenInputStream(Path("f"));
  ASSERT_TRUE(in.ok());
  char buf[64];
  EXPECT_EQ(*ReadFully(**in, buf, sizeof(buf)), 12);
  EXPECT_EQ(std::string(buf, 12), "hello world!");
  const FileInfo info = *fs_->GetFileInfo(Path("f"));
  EXPECT_EQ(info.type, FileType::kFile);
  EXPECT_EQ(info.size, 12);
  EXPECT_EQ(fs_->ReadWholeFile(Path("missing")).status().code(), StatusCode::kNotFound);
  EXPECT_FALSE(fs_->GetFileInfo(Path("missing/below"))->exists());
  EXPECT_FALSE(fs_->ReadWholeFile(root_).ok()) << "a directory read as a file";
}

TEST_P(FileSystemTest, AppendWholeFileAppendsOrLeavesNothing) {
  ASSERT_TRUE(fs_->WriteSmallFile(Path("a"), "alpha", false).ok());
  ASSERT_TRUE(fs_->WriteSmallFile(Path("e"), "", false).ok());
  BufferBuilder out;
  ASSERT_TRUE(out.Append("head", 4).ok());
  EXPECT_EQ(*fs_->AppendWholeFile(Path("a"), out, 100), 5);
  EXPECT_EQ(*fs_->AppendWholeFile(Path("e"), out, 100), 0);
  EXPECT_EQ(fs_->AppendWholeFile(Path("missing"), out, 100).status().code(), StatusCode::kNotFound);
  EXPECT_FALSE(fs_->AppendWholeFile(root_, out, 100).ok()) << "a directory read as a file";
  const Status over = fs_->AppendWholeFile(Path("a"), out, 4).status();
  EXPECT_EQ(over.code(), StatusCode::kInvalidArgument) << over.ToString();
  EXPECT_NE(over.ToString().find(Path("a")), std::string::npos) << over.ToString();
  EXPECT_EQ(*fs_->AppendWholeFile(Path("a"), out, 5), 5);
  EXPECT_EQ(out.Finish()->view(), "headalphaalpha");
}

TEST_P(FileSystemTest, AGatheredWriteWritesThePiecesInOrder) {
  const std::string big(300000, 'b');  // past the local stream's buffer with what it holds: writev
  const std::vector<std::string_view> pieces = {"ab", "", "cde", big, "f"};
  auto out = fs_->OpenOutputStream(Path("g"));
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE((*out)->Write("<", 1).ok());
  for (int i = 0; i < 4; ++i) ASSERT_TRUE((*out)->WriteGathered(pieces).ok());
  EXPECT_EQ((*out)->position(), 1 + 4 * static_cast<int64_t>(big.size() + 6));
  ASSERT_TRUE((*out)->Close().ok());
  std::string expected = "<";
  for (int i = 0; i < 4; ++i) expected += "abcde" + big + "f";
  EXPECT_TRUE(Read("g") == expected);
}

TEST_P(FileSystemTest, PositionalWritesLandAtTheirOffsetsFromSeveralThreadsAtOnce) {
  // 16 ranges of 100 000 bytes (three pieces each) written by 4 threads, each taking every
  // fourth range from the last one backwards: the file grows from its end first.
  constexpr int kRanges = 16;
  constexpr int64_t kSize = 100000;
  std::string expected;
  for (int r = 0; r < kRanges; ++r) expected += std::string(kSize - 2, static_cast<char>('a' + r)) + "<>";
  auto file = fs_->OpenPositionalOutput(Path("p"), {});
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  std::vector<std::future<Status>> writers;
  for (int t = 0; t < 4; ++t) {
    writers.push_back(std::async(std::launch::async, [&, t] {
      for (int r = kRanges - 1 - t; r >= 0; r -= 4) {
        const std::string_view range = std::string_view(expected).substr(static_cast<size_t>(r * kSize), kSize);
        const std::vector<std::string_view> pieces = {range.substr(0, 10), range.substr(10, kSize - 12),
                                                      range.substr(kSize - 2)};
        RETURN_NOT_OK((*file)->WriteGatheredAt(r * kSize, pieces));
      }
      return Status::OK();
    }));
  }
  for (auto& w : writers) ASSERT_TRUE(w.get().ok());
  ASSERT_TRUE((*file)->Close().ok());
  EXPECT_TRUE(Read("p") == expected);
  EXPECT_FALSE((*file)->WriteGatheredAt(0, std::vector<std::string_view>{"x"}).ok()) << "a write after close";

  WriteOptions keep;
  keep.append = true;  // reopened as it is, as a sink reopens a file it had to close
  auto again = fs_->OpenPositionalOutput(Path("p"), keep);
  ASSERT_TRUE(again.ok());
  ASSERT_TRUE((*again)->WriteGatheredAt(kRanges * kSize, std::vector<std::string_view>{"end"}).ok());
  ASSERT_TRUE((*again)->Close().ok());
  EXPECT_TRUE(Read("p") == expected + "end");
  auto truncated = fs_->OpenPositionalOutput(Path("p"), {});
  ASSERT_TRUE(truncated.ok());
  ASSERT_TRUE((*truncated)->Close().ok());
  EXPECT_EQ(Read("p"), "");
  EXPECT_FALSE(fs_->OpenPositionalOutput(root_, {}).ok()) << "a directory opened as a file";
}

TEST_P(FileSystemTest, DirectoriesListWalkAndRemove) {
  auto created = fs_->CreateDirectories(Path("a/b/c"));
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  EXPECT_EQ(*created, (std::vector<std::string>{Path("a/b/c"), Path("a/b"), Path("a")}));
  EXPECT_EQ(fs_->CreateDirectory(Path("a")).code(), StatusCode::kAlreadyExists);
  ASSERT_TRUE(fs_->CreateDirectory(Path("a/p"), 0750).ok());
  EXPECT_EQ(fs_->GetFileInfo(Path("a/p"))->permissions, 0750u);
  ASSERT_TRUE(fs_->WriteSmallFile(Path("a/b/c/x"), "x", false).ok());
  ASSERT_TRUE(fs_->WriteSmallFile(Path("a/y"), "y", false).ok());
  EXPECT_EQ(*fs_->ListDirectory(Path("a")), (std::vector<std::string>{"b", "p", "y"}));
  EXPECT_EQ(*fs_->ListFilesRecursively(Path("a")), (std::vector<std::string>{"b/c/x", "y"}));
  EXPECT_EQ(fs_->ListDirectoriesRecursively(Path("a"))->size(), 4u);
  EXPECT_FALSE(fs_->Remove(Path("a/b")).ok()) << "removed a directory that is not empty";
  fs_->RemoveDirectoryIfEmpty(Path("a/b"));
  EXPECT_TRUE(*fs_->Exists(Path("a/b")));
  ASSERT_TRUE(fs_->CreateDirectoriesBelow(Path("a"), "q/r").ok());
  EXPECT_TRUE(*fs_->IsDirectory(Path("a/q/r")));
  ASSERT_TRUE(fs_->RemoveTree(Path("a")).ok());
  EXPECT_FALSE(*fs_->Exists(Path("a")));
  EXPECT_TRUE(fs_->RemoveTree(Path("a")).ok()) << "removing nothing is fine";
  EXPECT_EQ(fs_->Remove(Path("a")).code(), StatusCode::kNotFound);
  EXPECT_FALSE(fs_->CreateDirectory(Path("none/d")).ok()) << "created a missing parent";
  EXPECT_FALSE(*fs_->IsMountPoint(root_));
}

TEST_P(FileSystemTest, RenamesNeverReplaceUnlessAskedAndExchangeSwaps) {
  ASSERT_TRUE(fs_->WriteSmallFile(Path("a"), "A", false).ok());
  ASSERT_TRUE(fs_->WriteSmallFile(Path("b"), "B", false).ok());
  EXPECT_EQ(fs_->Move(Path("a"), Path("b"), MoveMode::kNoReplace).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(Read("b"), "B");
  ASSERT_TRUE(fs_->Move(Path("a"), Path("b"), MoveMode::kReplace).ok());
  EXPECT_EQ(Read("b"), "A");
  EXPECT_FALSE(*fs_->Exists(Path("a")));
  ASSERT_TRUE(fs_->CreateDirectory(Path("d")).ok());
  ASSERT_TRUE(fs_->WriteSmallFile(Path("d/in"), "in", false).ok());
  ASSERT_TRUE(fs_->Move(Path("d"), Path("e"), MoveMode::kNoReplace).ok());
  EXPECT_EQ(Read("e/in"), "in");
  auto exchanged = fs_->TryExchange(Path("e"), Path("b"));
  ASSERT_TRUE(exchanged.ok()) << exchanged.status().ToString();
  if (*exchanged) {
    EXPECT_EQ(Read("e"), "A");
    EXPECT_EQ(Read("b/in"), "in");
  }
  EXPECT_FALSE(fs_->Move(Path("missing"), Path("x"), MoveMode::kNoReplace).ok());
}

TEST_P(FileSystemTest, HardLinksShareTheFile) {
  ASSERT_TRUE(fs_->WriteSmallFile(Path("a"), "A", false).ok());
  ASSERT_TRUE(fs_->HardLink(Path("a"), Path("b")).ok());
  EXPECT_EQ(fs_->HardLink(Path("a"), Path("b")).code(), StatusCode::kAlreadyExists);
  WriteOptions append;
  append.append = true;
  auto out = fs_->OpenOutputStream(Path("a"), append);
  ASSERT_TRUE((*out)->Write("+", 1).ok());
  ASSERT_TRUE((*out)->Close().ok());
  EXPECT_EQ(Read("b"), "A+");
  ASSERT_TRUE(fs_->Remove(Path("a")).ok());
  EXPECT_EQ(Read("b"), "A+");
}

TEST_P(FileSystemTest, LocksAreExclusiveAndKnowWhenTheirFileWasUnlinked) {
  LockOptions create_new;
  create_new.creation = LockOptions::Creation::kCreateNew;
  auto held = fs_->LockFile(Path("lock"), create_new);
  ASSERT_TRUE(held.ok()) << held.status().ToString();
  EXPECT_TRUE((*held)->NamesLockedFile());
  EXPECT_EQ(fs_->LockFile(Path("lock"), create_new).status().code(), StatusCode::kAlreadyExists);
  LockOptions try_existing;
  try_existing.creation = LockOptions::Creation::kExisting;
  try_existing.wait = false;
  EXPECT_EQ(*fs_->LockFile(Path("lock"), try_existing), nullptr) << "a held lock was taken";
  EXPECT_EQ(fs_->LockFile(Path("none"), try_existing).status().code(), StatusCode::kNotFound);
  // A waiter that opened the file gets the lock once it is released, on the file that was
  // unlinked meanwhile.
  std::promise<void> opened;
  Result<std::unique_ptr<FileLock>> waited = Status::Internal("not run");
  std::thread waiter([&] {
    LockOptions wait;
    wait.creation = LockOptions::Creation::kExisting;
    wait.before_lock = [&] { opened.set_value(); };
    waited = fs_->LockFile(Path("lock"), wait);
  });
  opened.get_future().wait();
  ASSERT_TRUE((*held)->UnlinkAndRelease().ok());
  waiter.join();
  ASSERT_TRUE(waited.ok()) << waited.status().ToString();
  ASSERT_NE(*waited, nullptr);
  EXPECT_FALSE((*waited)->NamesLockedFile());
  EXPECT_FALSE(*fs_->Exists(Path("lock")));
  held->reset();
  ASSERT_TRUE(fs_->LockFile(Path("lock"), create_new).ok()) << "the lock file could not be made again";
}

INSTANTIATE_TEST_SUITE_P(LocalMemoryAndForwarding, FileSystemTest,
                         ::testing::Values(Kind::kLocal, Kind::kMemory, Kind::kForwarding), [](const auto& info) {
                           switch (info.param) {
                             case Kind::kLocal:
                               return "Local";
                             case Kind::kMemory:
                               return "Memory";
                             case Kind::kForwarding:
                               return "Forwarding";
                           }
                           return "";
                         });

TEST(MemoryFileSystemTest, PathsResolveLexicallyFromTheRoot) {
  MemoryFileSystem fs;
  EXPECT_EQ(*fs.ResolvePath("a//b/./c/../d/"), "/a/b/d");
  EXPECT_EQ(*fs.ResolvePath("/"), "/");
  EXPECT_FALSE(fs.Move("/", "/x", MoveMode::kNoReplace).ok());
}

TEST(FaultInjectingFileSystemTest, FailsTheNthCallOfAKindOnly) {
  auto faults = std::make_shared<FaultInjectingFileSystem>(std::make_shared<MemoryFileSystem>());
  faults->FailNth(FsOperation::kMkdir, 2);
  EXPECT_TRUE(faults->CreateDirectory("/a").ok());
  EXPECT_TRUE(faults->WriteSmallFile("/a/f", "x", true).ok());
  const Status st = faults->CreateDirectory("/b");
  EXPECT_EQ(st.code(), StatusCode::kIOError);
  EXPECT_NE(st.message().find("cannot mkdir '/b': Input/output error (injected)"), std::string::npos) << st.ToString();
  EXPECT_FALSE(*faults->Exists("/b"));
  EXPECT_TRUE(faults->fired());
  EXPECT_TRUE(faults->CreateDirectory("/c").ok()) << "only the second mkdir fails";
}

TEST(FaultInjectingFileSystemTest, ShortWritesLeaveHalfAndNoSpaceLeavesNothing) {
  auto memory = std::make_shared<MemoryFileSystem>();
  FaultInjectingFileSystem faults(memory);
  faults.FailNth(FsOperation::kWrite, 1, FsFault::kShort);
  auto out = faults.OpenOutputStream("/f");
  ASSERT_TRUE(out.ok());
  const Status st = (*out)->Write("abcdef", 6);
  EXPECT_NE(st.message().find("No space left on device"), std::string::npos) << st.ToString();
  EXPECT_NE(st.ToString().find("offset 3"), std::string::npos) << st.ToString();
  EXPECT_EQ((*memory->ReadWholeFile("/f"))->view(), "abc");
  faults.FailNth(FsOperation::kWrite, 1, FsFault::kNoSpace);
  EXPECT_FALSE(faults.WriteSmallFile("/g", "abc", false).ok());
  EXPECT_EQ((*memory->ReadWholeFile("/g"))->size(), 0);
}

TEST(FaultInjectingFileSystemTest, AShortGatheredWriteCutsThroughItsPiecesAndCountsAsOneWrite) {
  auto memory = std::make_shared<MemoryFileSystem>();
  FaultInjectingFileSystem faults(memory);
  auto out = faults.OpenOutputStream("/f");
  ASSERT_TRUE(out.ok());
  const std::vector<std::string_view> pieces = {"ab", "", "cdefgh", "ij"};  // 10 bytes: the cut is inside "cdefgh"
  faults.FailNth(FsOperation::kWrite, 2, FsFault::kShort);
  ASSERT_TRUE((*out)->WriteGathered(pieces).ok());
  const Status st = (*out)->WriteGathered(pieces);
  EXPECT_TRUE(faults.fired()) << "each gathered write is one call";
  EXPECT_NE(st.message().find("No space left on device"), std::string::npos) << st.ToString();
  EXPECT_NE(st.ToString().find("offset 15"), std::string::npos) << st.ToString();
  EXPECT_EQ((*memory->ReadWholeFile("/f"))->view(), "abcdefghijabcde");
  faults.FailNth(FsOperation::kWrite, 1, FsFault::kNoSpace);
  EXPECT_FALSE((*out)->WriteGathered(pieces).ok());
  EXPECT_EQ((*memory->ReadWholeFile("/f"))->view(), "abcdefghijabcde") << "an error writes nothing";
}

TEST(FaultInjectingFileSystemTest, PositionalWritesFailLikeStreamWritesAndCanBeHidden) {
  auto memory = std::make_shared<MemoryFileSystem>();
  FaultInjectingFileSystem faults(memory);
  auto file = faults.OpenPositionalOutput("/f", {});
  ASSERT_TRUE(file.ok());
  const std::vector<std::string_view> pieces = {"ab", "cdefgh"};
  faults.FailNth(FsOperation::kWrite, 2, FsFault::kShort);
  ASSERT_TRUE((*file)->WriteGatheredAt(8, pieces).ok());
  const Status st = (*file)->WriteGatheredAt(0, pieces);
  EXPECT_NE(st.message().find("No space left on device"), std::string::npos) << st.ToString();
  EXPECT_NE(st.ToString().find("'/f'"), std::string::npos) << st.ToString();
  EXPECT_NE(st.ToString().find("offset 0"), std::string::npos) << st.ToString();
  EXPECT_EQ((*memory->ReadWholeFile("/f"))->view(), std::string("abcd\0\0\0\0abcdefgh", 16)) << "half of the range";
  faults.FailNth(FsOperation::kClose, 1);
  EXPECT_FALSE((*file)->Close().ok());
  faults.Clear();
  FileSystemCapabilities shown;
  shown.positional_writes = false;
  faults.set_capabilities(shown);
  EXPECT_FALSE(faults.capabilities().positional_writes);
  const Status hidden = faults.OpenPositionalOutput("/g", {}).status();
  EXPECT_NE(hidden.ToString().find("'/g'"), std::string::npos) << hidden.ToString();
}

TEST(FaultInjectingFileSystemTest, ACrashFailsEveryLaterCallAndExchangeCanBeHidden) {
  FaultInjectingFileSystem faults(std::make_shared<MemoryFileSystem>());
  faults.set_exchange(false);
  EXPECT_FALSE(faults.capabilities().exchange);
  ASSERT_TRUE(faults.CreateDirectory("/a").ok());
  ASSERT_TRUE(faults.CreateDirectory("/b").ok());
  EXPECT_FALSE(*faults.TryExchange("/a", "/b"));
  faults.CrashAtNth(2);
  EXPECT_TRUE(faults.GetFileInfo("/a").ok());
  EXPECT_FALSE(faults.GetFileInfo("/a").ok());
  EXPECT_FALSE(faults.ListDirectory("/").ok());
  EXPECT_EQ(faults.calls(), 3);
  faults.Clear();
  EXPECT_TRUE(faults.ListDirectory("/").ok());
}

TEST(FaultInjectingFileSystemTest, ReadFaultsNameTheFileAndOffsetAndShortReadsEndEarly) {
  auto memory = std::make_shared<MemoryFileSystem>();
  ASSERT_TRUE(memory->WriteSmallFile("/f", "0123456789", false).ok());
  FaultInjectingFileSystem faults(memory);
  faults.FailNth(FsOperation::kRead, 2);
  auto in = faults.OpenInputStream("/f");
  char buf[4];
  ASSERT_EQ(*(*in)->Read(buf, 4), 4);
  const Status st = (*in)->Read(buf, 4).status();
  EXPECT_NE(st.ToString().find("/f"), std::string::npos) << st.ToString();
  EXPECT_NE(st.ToString().find("offset 4"), std::string::npos) << st.ToString();
  faults.FailNth(FsOperation::kRead, 1, FsFault::kShort);
  EXPECT_EQ((*faults.ReadWholeFile("/f"))->view(), "01234");
}

TEST(LocalFileSystemTest, RenameFlagsUnsupportedByTheKernelFallBackAndCrossDeviceRenamesSayWhy) {
  EXPECT_TRUE(internal::RenameFlagUnsupported(EINVAL));  // the file system lacks the flag
  EXPECT_TRUE(internal::RenameFlagUnsupported(ENOSYS));  // the kernel lacks renameat2
  EXPECT_FALSE(internal::RenameFlagUnsupported(EXDEV));
  EXPECT_FALSE(internal::RenameFlagUnsupported(EACCES));
  const Status cross = internal::RenameError("cannot move 'a' to 'b'", EXDEV);
  EXPECT_EQ(cross.code(), StatusCode::kIOError);
  EXPECT_NE(cross.message().find("cannot move 'a' to 'b': they are on different file systems"), std::string::npos)
      << cross.ToString();
  EXPECT_NE(cross.message().find("write to a directory inside that file system"), std::string::npos);
  EXPECT_NE(internal::RenameError("x", EACCES).message().find(std::strerror(EACCES)), std::string::npos);
}

TEST(LocalFileSystemTest, TargetInfoFollowsSymlinksAsTheKernelDoes) {
  recflow::testing::ScratchDir dir;
  FileSystem& fs = *LocalFileSystem::Instance();
  ASSERT_TRUE(fs.WriteSmallFile(dir.File("f"), "abc", false).ok());
  std::filesystem::create_symlink("f", dir.path() / "link");
  EXPECT_EQ(fs.GetFileInfo(dir.File("link"))->type, FileType::kSymlink);
  EXPECT_EQ(fs.GetTargetInfo(dir.File("link"))->size, 3);
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);  // /dev/fd/N names the pipe, not a path ResolvePath could follow
  EXPECT_EQ(fs.GetTargetInfo("/dev/fd/" + std::to_string(fds[0]))->type, FileType::kOther);
  ::close(fds[0]);
  ::close(fds[1]);
}

TEST(LocalFileSystemTest, MountPointsAreFound) {
  EXPECT_TRUE(*LocalFileSystem::Instance()->IsMountPoint("/proc"));
}

}  // namespace
}  // namespace recflow
