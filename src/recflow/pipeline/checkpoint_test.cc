// Checkpoint files: what is written reads back (its generation, drained mark and dead-letter lengths too; a version 3
// file with no letters, a version 2 file as generation 0, not drained); a torn, foreign, older or altered file is
// refused naming the file and the byte offset; a drained one's next generation keeps only its positions and letters;
// writing replaces the previous checkpoint, removes the state files it no longer names and leaves no hidden file
// behind; a state file reads back only with the length and checksum the checkpoint names.
#include "recflow/pipeline/checkpoint.h"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include "recflow/core/crc32c.h"
#include "recflow/core/io.h"
#include "recflow/core/memory_filesystem.h"

namespace recflow::pipeline {
namespace {

Checkpoint Sample() {
  Checkpoint checkpoint;
  checkpoint.epochs["write"] = 3;
  checkpoint.epochs["letters"] = 0;
  checkpoint.positions["watch"] = {"b.jsonl", "a \"quoted\".jsonl", "c\n.jsonl"};
  checkpoint.states["combine"] = StateFile{"state-0000003-2", 1234, 0xfedcba98};
  checkpoint.letters["out/bad \"scenes\".jsonl"] = 4096;
  checkpoint.letters["late.jsonl"] = 0;
  checkpoint.generation = 2;
  checkpoint.drained = true;
  return checkpoint;
}

// `json` with a checksummed header of `version`.
std::string Manifest(int version, const std::string& json) {
  return fmt::format("recflow-checkpoint {} {} {:08x}\n{}", version, json.size(), Crc32c(json.data(), json.size()), json);
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
  const StateFile& state = (*back)->states.at("combine");
  EXPECT_EQ(state.name, "state-0000003-2");
  EXPECT_EQ(state.bytes, 1234);
  EXPECT_EQ(state.crc32c, 0xfedcba98u);
  EXPECT_EQ((*back)->letters, Sample().letters);
  EXPECT_EQ((*back)->generation, 2);
  EXPECT_TRUE((*back)->drained);
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
                        Case{"recflow-checkpoint 2 x y\n{}", "a bad header line", 21},
                        Case{"recflow-checkpoint 1 2 0\n{}", "written by an older recflow", 0},
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

TEST(CheckpointTest, AVersion2CheckpointReadsAsGenerationZeroNotDrained) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.CreateDirectory("/ckpt").ok());
  Write(fs, CheckpointFile("/ckpt"),
        Manifest(2, R"({"epochs":{"write":4},"positions":{"watch":["a.jsonl"]},"states":{}})"));
  auto read = ReadCheckpoint(fs, "/ckpt");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_TRUE(read->has_value());
  EXPECT_EQ((*read)->generation, 0);
  EXPECT_FALSE((*read)->drained);
  EXPECT_EQ((*read)->epochs.at("write"), 4);
  EXPECT_EQ((*read)->positions.at("watch"), std::vector<std::string>{"a.jsonl"});
  EXPECT_TRUE((*read)->letters.empty());
  // Version 3 has both fields: one without them is refused.
  Write(fs, CheckpointFile("/ckpt"), Manifest(3, R"({"epochs":{},"positions":{},"states":{}})"));
  read = ReadCheckpoint(fs, "/ckpt");
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.status().message().find("no \"generation\" count and \"drained\" mark"), std::string::npos)
      << read.status().ToString();
}

TEST(CheckpointTest, AVersion3CheckpointReadsWithNoLettersAndAVersion4OneNeedsThem) {
  MemoryFileSystem fs;
  ASSERT_TRUE(fs.CreateDirectory("/ckpt").ok());
  Write(fs, CheckpointFile("/ckpt"),
        Manifest(3, R"({"generation":1,"drained":false,"epochs":{"write":2},"positions":{"events":["1-9"]},)"
                    R"("states":{}})"));
  auto read = ReadCheckpoint(fs, "/ckpt");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_TRUE(read->has_value());
  EXPECT_EQ((*read)->generation, 1);
  EXPECT_EQ((*read)->epochs.at("write"), 2);
  EXPECT_TRUE((*read)->letters.empty());
  for (const char* letters : {"", R"(,"letters":{"bad.jsonl":-1})", R"(,"letters":{"bad.jsonl":"12"})"}) {
    Write(fs, CheckpointFile("/ckpt"),
          Manifest(4, std::string(R"({"generation":1,"drained":false,"epochs":{},"positions":{},"states":{})") +
                          letters + "}"));
    read = ReadCheckpoint(fs, "/ckpt");
    ASSERT_FALSE(read.ok()) << letters;
    EXPECT_EQ(read.status().code(), StatusCode::kDataError);
    EXPECT_NE(read.status().message().find("letters"), std::string::npos) << read.status().ToString();
    EXPECT_EQ(read.status().context().file, CheckpointFile("/ckpt"));
  }
}

TEST(CheckpointTest, TheNextGenerationOfADrainedCheckpointKeepsOnlyItsPositionsAndLetters) {
  const Checkpoint next = NextGeneration(Sample());
  EXPECT_EQ(next.generation, 3);
  EXPECT_FALSE(next.drained);
  EXPECT_EQ(next.positions, Sample().positions);
  EXPECT_EQ(next.letters, Sample().letters);
  EXPECT_TRUE(next.epochs.empty());
  EXPECT_TRUE(next.states.empty());
}

TEST(CheckpointTest, StateFilesReadBackAsNamedAndGoOnceNoCheckpointNamesThem) {
  MemoryFileSystem fs;
  const auto data = Buffer::FromString("the bytes of a window state");
  auto first = WriteStateFile(fs, "/ckpt", "0000001-2", *data);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(first->name, "state-0000001-2");
  Checkpoint checkpoint;
  checkpoint.states["combine"] = *first;
  ASSERT_TRUE(WriteCheckpoint(fs, "/ckpt", checkpoint).ok());
  auto back = ReadStateFile(fs, "/ckpt", *first);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE((*back)->Equals(*data));
  // A later checkpoint naming another state file removes the first.
  auto second = WriteStateFile(fs, "/ckpt", "0000002-2", *data);
  ASSERT_TRUE(second.ok());
  checkpoint.states["combine"] = *second;
  ASSERT_TRUE(WriteCheckpoint(fs, "/ckpt", checkpoint).ok());
  auto names = fs.ListDirectory("/ckpt");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, (std::vector<std::string>{"checkpoint", "state-0000002-2"}));
  // Altered, cut short or gone: refused naming the file.
  const std::string path = "/ckpt/state-0000002-2";
  for (const std::string& text : {std::string("the bytes of a window statE"), std::string("the bytes"), std::string()}) {
    if (text.empty()) {
      ASSERT_TRUE(fs.Remove(path).ok());
    } else {
      Write(fs, path, text);
    }
    auto read = ReadStateFile(fs, "/ckpt", *second);
    ASSERT_FALSE(read.ok()) << text;
    EXPECT_EQ(read.status().code(), StatusCode::kDataError);
    EXPECT_EQ(read.status().context().file, path) << read.status().ToString();
  }
}

}  // namespace
}  // namespace recflow::pipeline
