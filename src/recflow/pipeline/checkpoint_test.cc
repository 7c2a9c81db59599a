// Checkpoint files: what is written reads back; a torn, foreign or altered file is refused naming the file and the
// byte offset; writing replaces the previous checkpoint and leaves no hidden file behind.
#include "recflow/pipeline/checkpoint.h"

#include <gtest/gtest.h>

#include "recflow/core/io.h"
#include "recflow/core/memory_filesystem.h"

namespace recflow::pipeline {
namespace {

Checkpoint Sample() {
  Checkpoint checkpoint;
  checkpoint.epochs["write"] = 3;
  checkpoint.epochs["letters"] = 0;
  checkpoint.positions["watch"] = {"b.jsonl", "a \"quoted\".jsonl", "c\n.jsonl"};
  return checkpoint;
}

std::string Read(FileSystem& fs, const std::string& path) {
  auto data = fs.ReadWholeFile(path);
  EXPECT_TRUE(data.ok());
  return std::string(reinterpret_cast<const char*>((*data)->data()), static_cast<size_t>((*data)->size()));
}

void Write(FileSystem& fs, const std::string& path, const std::string& text) {
  auto out = fs.OpenOutputStream(path);
  ASSERT_TRUE(out.ok());
  ASSERT_TRUE((*out)->Write(text.data(), static_cast<int64_t>(text.size())).ok());
  ASSERT_TRUE((*out)->Close().ok());
}

TEST(CheckpointTest, WhatIsWrittenReadsBackAndReplacesThePreviousOne) {
  MemoryFileSystem fs;
  auto none = ReadCheckpoint(fs, "/ckpt");
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_FALSE(none->has_value());
  ASSERT_TRUE(WriteCheckpoint(fs, "/ckpt", Checkpoint{}).ok());
  ASSERT_TRUE(WriteCheckpoint(fs, "/ckpt", Sample()).ok());
  auto back = ReadCheckpoint(fs, "/ckpt");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_TRUE(back->has_value());
  EXPECT_EQ((*back)->epochs, Sample().epochs);
  EXPECT_EQ((*back)->positions, Sample().positions);
  auto names = fs.ListDirectory("/ckpt");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, std::vector<std::string>{"checkpoint"}) << "no hidden file left behind";
}

TEST(CheckpointTest, ATornForeignOrAlteredCheckpointIsRefusedNamingTheFileAndTheOffset) {
  MemoryFileSystem fs;
  ASSERT_TRUE(WriteCheckpoint(fs, "/ckpt", Sample()).ok());
  const std::string path = CheckpointFile("/ckpt");
  const std::string whole = Read(fs, path);
  const size_t json = whole.find('\n') + 1;
  std::string altered = whole;
  altered[json + 3] ^= 1;
  struct Case {
    std::string text;
    std::string why;
    int64_t offset;
  };
  for (const Case& c : {Case{whole.substr(0, whole.size() - 7), "bytes of JSON where the header says", int64_t(json)},
                        Case{whole.substr(0, json - 4), "no header line", 0},
                        Case{"", "no header line", 0},
                        Case{"recflow-checkpoint 1 x y\n{}", "a bad header line", 21},
                        Case{altered, "does not match its CRC32C", int64_t(json)}}) {
    Write(fs, path, c.text);
    auto read = ReadCheckpoint(fs, "/ckpt");
    ASSERT_FALSE(read.ok()) << c.why;
    EXPECT_EQ(read.status().code(), StatusCode::kDataError);
    EXPECT_NE(read.status().message().find(c.why), std::string::npos) << read.status().ToString();
    EXPECT_EQ(read.status().context().file, path);
    EXPECT_EQ(read.status().context().offset, c.offset) << c.why;
  }
}

}  // namespace
}  // namespace recflow::pipeline
