// DeadLetters: a file opened to keep a checkpoint's length keeps those bytes, loses what was written after them and
// takes the next letters after them; a length past the file's end is refused naming the file; MakeDurable reports the
// length of what was kept and written; a first open truncates.
#include "recflow/pipeline/dead_letters.h"

#include <gtest/gtest.h>

#include "recflow/core/memory_filesystem.h"

namespace recflow::pipeline {
namespace {

std::string Read(FileSystem& fs, const std::string& path) {
  auto data = fs.ReadWholeFile(path);
  EXPECT_TRUE(data.ok()) << data.status().ToString();
  if (!data.ok()) return std::string();
  return std::string(reinterpret_cast<const char*>((*data)->data()), static_cast<size_t>((*data)->size()));
}

// A letter of step "parse" for the bad row `text`.
DeadLetter Letter(const std::string& text) {
  DeadLetter letter{"parse", 0, Status::DataError("bad row"), std::string()};
  letter.row_json = "\"" + text + "\"";
  return letter;
}

// The lines of `text`.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t start = 0, end; start < text.size(); start = end + 1) {
    end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
  }
  return lines;
}

TEST(DeadLettersTest, ReopenedToACheckpointsLengthItKeepsThoseBytesDropsTheRestAndAppends) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.CreateDirectory("/out").ok());
  int64_t checkpointed = 0;
  {
    DeadLetters letters;
    ASSERT_TRUE(letters.Open("/out/bad.jsonl", fs).ok());
    ASSERT_TRUE(letters.Write("/out/bad.jsonl", Letter("a"), "in.csv", 1).ok());
    auto length = letters.MakeDurable("/out/bad.jsonl");
    ASSERT_TRUE(length.ok()) << length.status().ToString();
    checkpointed = *length;
    ASSERT_TRUE(letters.Write("/out/bad.jsonl", Letter("b"), "in.csv", 2).ok());  // after the checkpoint
    ASSERT_TRUE(letters.Close().ok());
  }
  const std::string first = Read(fs, "/out/bad.jsonl");
  ASSERT_EQ(Lines(first).size(), 2u);
  EXPECT_EQ(checkpointed, static_cast<int64_t>(first.find('\n') + 1));
  {
    DeadLetters letters;
    ASSERT_TRUE(letters.Open("/out/bad.jsonl", fs, "", checkpointed).ok());
    EXPECT_EQ(Read(fs, "/out/bad.jsonl"), first.substr(0, static_cast<size_t>(checkpointed))) << "cut at once";
    ASSERT_TRUE(letters.Write("/out/bad.jsonl", Letter("b"), "in.csv", 2).ok());  // made again after the restart
    auto length = letters.MakeDurable("/out/bad.jsonl");
    ASSERT_TRUE(length.ok()) << length.status().ToString();
    EXPECT_EQ(*length, static_cast<int64_t>(first.size()));
    ASSERT_TRUE(letters.Close().ok());
  }
  EXPECT_EQ(Read(fs, "/out/bad.jsonl"), first) << "each letter once";
  auto names = fs.ListDirectory("/out");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, std::vector<std::string>{"bad.jsonl"}) << "no hidden file left behind";
}

TEST(DeadLettersTest, AFileAsLongAsTheCheckpointSaysOrMissingAtLengthZeroIsAppendedTo) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.WriteSmallFile("/kept.jsonl", "{\"old\":1}\n", false).ok());
  DeadLetters letters;
  ASSERT_TRUE(letters.Open("/kept.jsonl", fs, "", 10).ok());
  ASSERT_TRUE(letters.Open("/new.jsonl", fs, "", 0).ok());
  ASSERT_TRUE(letters.Write("/kept.jsonl", Letter("c"), "in.csv", 3).ok());
  ASSERT_TRUE(letters.Write("/new.jsonl", Letter("d"), "in.csv", 4).ok());
  auto kept = letters.MakeDurable("/kept.jsonl");
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();
  ASSERT_TRUE(letters.Close().ok());
  const std::vector<std::string> lines = Lines(Read(fs, "/kept.jsonl"));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "{\"old\":1}");
  EXPECT_NE(lines[1].find("\"row\":\"c\""), std::string::npos) << lines[1];
  EXPECT_EQ(*kept, static_cast<int64_t>(10 + lines[1].size() + 1));
  EXPECT_EQ(Lines(Read(fs, "/new.jsonl")).size(), 1u);
}

TEST(DeadLettersTest, ALengthPastTheFilesEndIsRefusedNamingTheFile) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.WriteSmallFile("/bad.jsonl", "{\"old\":1}\n", false).ok());
  for (const std::string path : {"/bad.jsonl", "/missing.jsonl"}) {
    DeadLetters letters;
    const Status st = letters.Open(path, fs, "", 11);
    ASSERT_FALSE(st.ok()) << path;
    EXPECT_EQ(st.code(), StatusCode::kDataError);
    EXPECT_EQ(st.context().file, path);
    EXPECT_NE(st.message().find("where the checkpoint says 11"), std::string::npos) << st.ToString();
  }
  EXPECT_EQ(Read(fs, "/bad.jsonl"), "{\"old\":1}\n") << "left as it was";
}

TEST(DeadLettersTest, AFirstOpenTruncatesAndStandardOutputIsNeverKept) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.WriteSmallFile("/bad.jsonl", "{\"old\":1}\n", false).ok());
  DeadLetters letters;
  ASSERT_TRUE(letters.Open("/bad.jsonl", fs).ok());
  auto length = letters.MakeDurable("/bad.jsonl");
  ASSERT_TRUE(length.ok()) << length.status().ToString();
  EXPECT_EQ(*length, 0);
  EXPECT_EQ(Read(fs, "/bad.jsonl"), "");
  EXPECT_EQ(letters.Open("-", fs, "", 0).code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace recflow::pipeline
