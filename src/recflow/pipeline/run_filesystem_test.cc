// A YAML pipeline run whose ExecContext's file system is the in-memory one reads and writes only there (its
// inputs, the files a step writes and reads back, a vocabulary side file, outputs, dead letters), a write_files
// step whose rename that file system refuses fails its row leaving no temporary file, and a short write through a
// Feather shard's gathered write leaves the old dataset.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

#include "recflow/core/fault_injecting_filesystem.h"
#include "recflow/core/memory_filesystem.h"
#include "recflow/pipeline/step_registry.h"
#include "recflow/pipeline/local_runner.h"
#include "recflow/pipeline/yaml_pipeline.h"

namespace recflow::pipeline {
namespace {

// Two 1×2 images and their labels 3 and 5 as IDX files, bytes written from the format's description
// (magic 0 0 type dims, big-endian sizes, then the items).
const std::string kImages("\x00\x00\x08\x03\x00\x00\x00\x02\x00\x00\x00\x01\x00\x00\x00\x02\x0a\x14\x1e\x28", 20);
const std::string kLabels("\x00\x00\x08\x01\x00\x00\x00\x02\x03\x05", 10);

// IDX images → PNG files under files/, read back and decoded; their paths and labels as a CSV, the
// paths' vocabulary as a side file; a CSV table with one record of too many fields, read with a
// schema file making `id` text → JSON Lines, that record to a dead-letter file.
constexpr const char* kPipeline = R"(
steps:
  - name: digits
    read_idx: {images: idx/images, labels: idx/labels}
  - text_template: {output: path, template: "png/{label}/{index}.png"}
  - encode_image: {column: image, format: png, output: png}
  - write_files: {dir: files, path: path, bytes: png}
  - load_file: {column: path, base_dir: files, output: reread}
  - decode_image: {column: reread, output: decoded}
  - vocabulary: {column: path, file: paths.vocab}
  - select: [path, label]
  - write: {path: out/labels, format: csv, shards: 1}
  - name: table
    read: {path: table.csv, schema: table.schema.json}
    on_error: dead_letter
    dead_letter: bad.jsonl
  - write: {path: out/table, format: jsonl, shards: 1}
)";

// A memory file system holding the pipeline's inputs under /mem.
std::shared_ptr<MemoryFileSystem> Inputs() {
  auto memory = std::make_shared<MemoryFileSystem>();
  EXPECT_TRUE(memory->CreateDirectories("/mem/idx").ok());
  EXPECT_TRUE(memory->WriteSmallFile("/mem/idx/images", kImages, false).ok());
  EXPECT_TRUE(memory->WriteSmallFile("/mem/idx/labels", kLabels, false).ok());
  EXPECT_TRUE(memory->WriteSmallFile("/mem/table.csv", "id,name\n1,a\n2,b,extra\n3,c\n", false).ok());
  EXPECT_TRUE(memory
                  ->WriteSmallFile("/mem/table.schema.json",
                                   R"({"fields": [{"name": "id", "type": "utf8"}, {"name": "name", "type": "utf8"}]})",
                                   false)
                  .ok());
  return memory;
}

Result<YamlPipeline> Build(const std::string& text, const std::shared_ptr<FileSystem>& file_system) {
  YamlLoadOptions options;
  options.file_system = file_system;
  return ParsePipelineYaml(text, "p.yaml", "/mem", {}, BuiltinSteps(), options);
}

std::string Text(MemoryFileSystem& memory, const std::string& path) {
  auto data = memory.ReadWholeFile(path);
  return data.ok() ? std::string((*data)->view()) : data.status().ToString();
}

TEST(RunFileSystemTest, APipelineOnTheInMemoryFileSystemReadsAndWritesOnlyThere) {
  auto memory = Inputs();
  auto loaded = Build(kPipeline, memory);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ASSERT_TRUE(loaded->pipeline->status().ok()) << loaded->pipeline->status().ToString();
  ExecContext context = ExecContext::Defaults();
  context.file_system = memory;
  auto result = RunPipeline(context, *loaded->pipeline, RunOptions::Defaults(), nullptr);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_FALSE(std::filesystem::exists("/mem")) << "the run touched the local disk";

  auto files = memory->ListFilesRecursively("/mem/files");
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  EXPECT_EQ(*files, (std::vector<std::string>{"png/3/0.png", "png/5/1.png"}));
  EXPECT_EQ(Text(*memory, "/mem/files/png/3/0.png").substr(1, 3), "PNG");
  EXPECT_EQ(Text(*memory, "/mem/out/labels/part-00000-of-00001.csv"),
            "path,label\npng/3/0.png,3\npng/5/1.png,5\n");
  EXPECT_EQ(Text(*memory, "/mem/paths.vocab"), "png/3/0.png\npng/5/1.png\n");
  EXPECT_EQ(Text(*memory, "/mem/out/table/part-00000-of-00001.jsonl"),
            "{\"id\":\"1\",\"name\":\"a\"}\n{\"id\":\"3\",\"name\":\"c\"}\n");
  const std::string letters = Text(*memory, "/mem/bad.jsonl");
  EXPECT_NE(letters.find("\"step\":\"table\""), std::string::npos) << letters;
  EXPECT_NE(letters.find("\"record\":1"), std::string::npos) << letters;
  EXPECT_NE(letters.find("2,b,extra"), std::string::npos) << letters;
}

TEST(RunFileSystemTest, AWriteFilesRenameTheFileSystemRefusesFailsTheRowAndLeavesNoTemporary) {
  auto memory = Inputs();
  auto refusing = std::make_shared<FaultInjectingFileSystem>(memory);
  auto loaded = Build(R"(
steps:
  - read_idx: {images: idx/images, labels: idx/labels}
  - text_template: {output: path, template: "{index}.png"}
  - encode_image: {column: image, format: png, output: png}
  - name: files
    write_files: {dir: files, path: path, bytes: png}
  - select: [path]
  - write: {path: out, format: csv}
)",
                      refusing);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ExecContext context = ExecContext::Defaults();
  context.threads = 1;
  context.file_system = refusing;
  refusing->FailNth(FsOperation::kRename, 1);
  auto result = RunPipeline(context, *loaded->pipeline, RunOptions::Defaults(), nullptr);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(refusing->fired());
  EXPECT_NE(result.status().ToString().find("step 'files'"), std::string::npos) << result.status().ToString();
  EXPECT_NE(result.status().ToString().find("/mem/files/0.png"), std::string::npos) << result.status().ToString();
  auto files = memory->ListFilesRecursively("/mem/files");
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  for (const std::string& file : *files) EXPECT_EQ(file.find(".tmp-"), std::string::npos) << file;
  EXPECT_FALSE(*memory->Exists("/mem/files/0.png"));
  EXPECT_FALSE(*memory->Exists("/mem/out"));
  EXPECT_FALSE(std::filesystem::exists("/mem"));
}

/// `rows` CSV rows "i,name-i" (from `first` on) under a header.
std::string NumberedCsv(int first, int rows) {
  std::string csv = "id,name\n";
  for (int i = first; i < first + rows; ++i) csv += std::to_string(i) + ",name-" + std::to_string(i) + "\n";
  return csv;
}

/// Every file under `root` on `fs` with its content, hidden ones (staging) included.
std::map<std::string, std::string> Snapshot(FileSystem& fs, const std::string& root) {
  std::map<std::string, std::string> files;
  auto names = fs.ListFilesRecursively(root);
  EXPECT_TRUE(names.ok()) << names.status().ToString();
  for (const std::string& name : *names) files[name] = std::string((*fs.ReadWholeFile(root + "/" + name))->view());
  return files;
}

TEST(RunFileSystemTest, AShortWriteCuttingAFeatherShardsGatheredWriteFailsTheRunAndKeepsTheOldDataset) {
  auto memory = std::make_shared<MemoryFileSystem>();
  ASSERT_TRUE(memory->CreateDirectories("/mem").ok());
  auto faults = std::make_shared<FaultInjectingFileSystem>(memory);
  const std::string pipeline = R"(
steps:
  - read: {path: table.csv}
  - write: {path: out, format: feather, shards: 1, mode: overwrite}
)";
  ExecContext context = ExecContext::Defaults();
  context.threads = 1;
  context.file_system = faults;
  const auto run = [&]() -> Status {
    ASSIGN_OR_RETURN(YamlPipeline loaded, Build(pipeline, faults));
    RETURN_NOT_OK(loaded.pipeline->status());
    return RunPipeline(context, *loaded.pipeline, RunOptions::Defaults(), nullptr).status();
  };
  ASSERT_TRUE(memory->WriteSmallFile("/mem/table.csv", NumberedCsv(0, 500), false).ok());
  ASSERT_TRUE(run().ok());
  ASSERT_TRUE(memory->WriteSmallFile("/mem/table.csv", NumberedCsv(1000, 3000), false).ok());
  const auto before = Snapshot(*memory, "/mem");

  // Fail each write of the job in turn with a short write (half its bytes, then ENOSPC): the batches'
  // messages go out in one gathered write, which the fault cuts in the middle of its pieces.
  std::vector<int64_t> cuts;  // the file offsets the short writes stopped at
  for (int64_t nth = 1;; ++nth) {
    ASSERT_LT(nth, 100) << "the job never got through";
    faults->FailNth(FsOperation::kWrite, nth, FsFault::kShort);
    const Status st = run();
    if (!faults->fired()) {
      ASSERT_TRUE(st.ok()) << st.ToString();
      break;
    }
    ASSERT_FALSE(st.ok()) << "write " << nth;
    EXPECT_NE(st.ToString().find("No space left on device"), std::string::npos) << st.ToString();
    EXPECT_EQ(Snapshot(*memory, "/mem"), before) << "write " << nth << " left something behind: " << st.ToString();
    const size_t at = st.ToString().find("offset ");
    if (at != std::string::npos) cuts.push_back(std::stoll(st.ToString().substr(at + 7)));
  }
  const auto after = Snapshot(*memory, "/mem");
  const auto size = static_cast<int64_t>(after.at("out/part-00000-of-00001.feather").size());
  EXPECT_GT(size, static_cast<int64_t>(before.at("out/part-00000-of-00001.feather").size()));
  // The schema message and the footer are under 1 KiB each: a cut further from both ends was in the batches.
  EXPECT_TRUE(std::any_of(cuts.begin(), cuts.end(), [&](int64_t cut) { return cut > 1024 && cut < size - 1024; }))
      << "no fault cut the batches' gathered write of the " << size << "-byte file";
}

}  // namespace
}  // namespace recflow::pipeline
