// Every registered format over a FileSystem: real files detected and read (DetectInputs, OpenInputs, each format's
// FileOpener) through the in-memory file system give what the local read gives, and a failing or short read through
// the fault-injecting one is an error naming the file and the byte offset.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "recflow/columnar/pretty_print.h"
#include "recflow/core/fault_injecting_filesystem.h"
#include "recflow/core/memory_filesystem.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/formats/source_test_util.h"
#include "recflow/testing/testdata.h"

namespace recflow::dataset {
namespace {

/// One reader and a real file it reads.
struct ReaderCase {
  std::string name;
  std::string path;  ///< a local file, copied to the same path in memory
  bool ends_marked;  ///< the file ends with a trailer (gzip, an Arrow file's footer): a cut one is always an error
};

/// The files: written by TensorFlow/TFX (TFRecord), Apache Arrow's integration suite (Arrow
/// file and stream), the Apache Avro Python library (Avro), a CSV of the Palmer penguins, and
/// JSON Lines written here byte by byte (no independent JSON Lines file is in the shared data).
std::vector<ReaderCase> Cases(const recflow::testing::ScratchDir& scratch) {
  const std::string data = recflow::testing::TestdataDir().string();
  const std::string arrow = data + "/arrow-integration/1.0.0-littleendian/generated_primitive";
  const std::string jsonl = scratch.File("events.jsonl");
  std::ofstream(jsonl, std::ios::binary) << "{\"id\": 1, \"name\": \"a\", \"tags\": [\"x\"]}\n"
                                         << "{\"id\": 2, \"name\": null, \"tags\": []}\n"
                                         << "{\"id\": 3, \"name\": \"\\u00e9t\\u00e9\", \"tags\": [\"y\", \"z\"]}\n";
  return {{"tfrecord", data + "/tfrecord/tfx/mnist.tfrecord", false},
          {"tfrecord_gzip", data + "/tfrecord/tfx/penguin-train.tfrecord.gz", true},
          {"csv", data + "/csv/penguins_processed.csv", false},
          {"jsonl", jsonl, false},
          {"avro", std::string(RECFLOW_AVRO_TESTDATA) + "/events_deflate.avro", false},
          {"arrow_file", arrow + ".arrow_file", true},
          {"arrow_stream", arrow + ".stream", false}};
}

/// Every row of `inputs`, read through `fs` as OpenInputs reads them, printed column by column
/// after the schema.
Result<std::string> ReadInputs(const ResolvedInputs& inputs, const std::shared_ptr<FileSystem>& fs) {
  InputOptions options;
  options.settings.file_system = fs;
  ASSIGN_OR_RETURN(std::unique_ptr<Source> source, OpenInputs(inputs, options));
  std::string out = source->schema()->ToString() + "\n";
  while (true) {
    ASSIGN_OR_RETURN(std::unique_ptr<SourceUnit> unit, NextSourceUnit(*source));
    if (unit == nullptr) return out;
    ASSIGN_OR_RETURN(DecodedUnit decoded, DecodeUnit(*unit));
    for (int c = 0; c < decoded.batch->num_columns(); ++c) {
      out += ArrayToString(*decoded.batch->column_data(c), int64_t{1} << 40) + "\n";
    }
  }
}

/// Every row `path` holds, detected (DetectInputs) and read through `fs`.
Result<std::string> ReadAll(const std::string& path, const std::shared_ptr<FileSystem>& fs) {
  ASSIGN_OR_RETURN(ResolvedInputs inputs, DetectInputs({path}, nullptr, *fs));
  return ReadInputs(inputs, fs);
}

/// The number of rows `source` yields (every unit decoded).
Result<int64_t> RowsOf(Source& source) {
  ASSIGN_OR_RETURN(std::vector<DecodedUnit> units, testing::DecodeAllUnits(source));
  int64_t rows = 0;
  for (const DecodedUnit& unit : units) rows += unit.batch->num_rows();
  return rows;
}

/// Where a local file is copied in memory: a path that exists on no disk.
std::string MemoryPath(const std::string& path) { return "/in-memory" + path; }

/// `path`'s local bytes, copied to MemoryPath(path) of a new MemoryFileSystem.
std::shared_ptr<MemoryFileSystem> InMemory(const std::string& path) {
  auto memory = std::make_shared<MemoryFileSystem>();
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(memory->CreateDirectories(ParentPath(MemoryPath(path))).ok());
  EXPECT_TRUE(memory->WriteSmallFile(MemoryPath(path), bytes, false).ok());
  return memory;
}

class FileSystemInputsTest : public ::testing::Test {
 protected:
  void SetUp() override { RECFLOW_REQUIRE_TESTDATA(); }
  recflow::testing::ScratchDir scratch_;
};

TEST_F(FileSystemInputsTest, EveryReaderReadsThroughTheInMemoryFileSystemAsFromTheLocalOne) {
  for (const ReaderCase& c : Cases(scratch_)) {
    SCOPED_TRACE(c.name);
    Result<std::string> local = ReadAll(c.path, LocalFileSystem::Instance());
    ASSERT_TRUE(local.ok()) << local.status().ToString();
    auto counted = std::make_shared<FaultInjectingFileSystem>(InMemory(c.path));
    Result<std::string> memory = ReadAll(MemoryPath(c.path), counted);
    ASSERT_TRUE(memory.ok()) << memory.status().ToString();
    EXPECT_EQ(*memory, *local);
    EXPECT_GT(counted->calls(), 0) << "the file was not read through the file system";
    EXPECT_GT(local->size(), 100u);
  }
}

TEST_F(FileSystemInputsTest, SeveralTfrecordFilesAreSampledAndReadThroughTheFileSystem) {
  // TFRecord files read together are sampled first (FileOpener::SampleSchema), then read: both
  // through the file system of the read settings (the paths exist on no disk). The same TFX file
  // twice gives its rows twice.
  const std::string path = recflow::testing::TestdataDir().string() + "/tfrecord/tfx/mnist.tfrecord";
  std::shared_ptr<MemoryFileSystem> memory = InMemory(path);
  const std::string dir = ParentPath(MemoryPath(path));
  ASSERT_TRUE(memory->HardLink(MemoryPath(path), dir + "/mnist-copy.tfrecord").ok());
  auto counted = std::make_shared<FaultInjectingFileSystem>(memory);
  Result<ResolvedInputs> inputs = DetectInputs({dir}, nullptr, *counted);
  ASSERT_TRUE(inputs.ok()) << inputs.status().ToString();
  ASSERT_EQ(inputs->files.size(), 2u);
  counted->Clear();
  InputOptions options;
  options.settings.file_system = counted;
  Result<std::unique_ptr<Source>> source = OpenInputs(*inputs, options);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  Result<int64_t> rows = RowsOf(**source);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_GT(counted->calls(), 0);
  Result<std::unique_ptr<Source>> local = OpenInputs({path}, InputOptions{});
  ASSERT_TRUE(local.ok()) << local.status().ToString();
  Result<int64_t> local_rows = RowsOf(**local);
  ASSERT_TRUE(local_rows.ok()) << local_rows.status().ToString();
  EXPECT_GT(*local_rows, 0);
  EXPECT_EQ(*rows, 2 * *local_rows);
}

TEST_F(FileSystemInputsTest, AFailingOrShortReadIsAnErrorNamingTheFileAndOffset) {
  for (const ReaderCase& c : Cases(scratch_)) {
    const std::string full = *ReadAll(c.path, LocalFileSystem::Instance());
    for (const FsFault fault : {FsFault::kError, FsFault::kShort}) {
      for (int64_t n = 1; n <= 3; ++n) {
        SCOPED_TRACE(c.name + (fault == FsFault::kShort ? " short read " : " failed read ") + std::to_string(n));
        auto faults = std::make_shared<FaultInjectingFileSystem>(InMemory(c.path));
        Result<ResolvedInputs> inputs = DetectInputs({MemoryPath(c.path)}, nullptr, *faults);
        ASSERT_TRUE(inputs.ok()) << inputs.status().ToString();
        faults->FailNth(FsOperation::kRead, n, fault);  // the reads of the data, after detection
        const Result<std::string> read = ReadInputs(*inputs, faults);
        if (!faults->fired()) continue;  // read whole in fewer reads
        if (read.ok()) {
          // A short read at the end loses nothing. A file cut between two records (rows, lines,
          // blocks, messages) reads as a shorter file, which no reader can tell from one, unless
          // the format marks its end.
          EXPECT_TRUE(!c.ends_marked || *read == full) << "a truncated " << c.name << " file read without an error";
          EXPECT_NE(fault, FsFault::kError) << "a failed read went unnoticed";
          continue;
        }
        const ErrorContext& where = read.status().context();
        EXPECT_EQ(where.file, MemoryPath(c.path)) << read.status().ToString();
        EXPECT_GE(where.offset, 0) << read.status().ToString();
      }
    }
  }
}

}  // namespace
}  // namespace recflow::dataset
