// Tests of DatasetSink's chunks: long runs of records written from the bytes they were encoded in, short runs
// and the header copied, all in input order, compressed or not, flushed early or not, written at offsets
// (in whatever order Process runs) or appended in order.
#include "recflow/dataset/dataset_sink.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "recflow/columnar/builder.h"
#include "recflow/core/compression.h"
#include "recflow/core/fault_injecting_filesystem.h"
#include "recflow/core/memory_filesystem.h"
#include "recflow/formats/csv/csv_output_format.h"

namespace recflow::dataset {
namespace {

using Batches = std::vector<std::shared_ptr<RecordBatch>>;

SchemaPtr RowSchema() { return Schema::Make({Field::Make("id", int64(), false), Field::Make("text", utf8(), false)}); }

// Rows `first` .. `first + n - 1` with a text of `width` x's; appends their CSV lines to `*csv`.
std::shared_ptr<RecordBatch> Rows(int64_t first, int64_t n, size_t width, std::string* csv) {
  Int64Builder ids;
  BinaryBuilder texts(utf8());
  const std::string text(width, 'x');
  for (int64_t i = first; i < first + n; ++i) {
    EXPECT_TRUE(ids.Append(i).ok());
    EXPECT_TRUE(texts.Append(text).ok());
    csv->append(std::to_string(i)).append(",").append(text).append("\n");
  }
  return *RecordBatch::Make(RowSchema(), n, {*ids.Finish(), *texts.Finish()});
}

// `batches` through `sink` as the stage executor takes a batch through it (Consume, Merge,
// Process, Emit), on one thread; then the drained rest, and the commit.
Status WriteAll(DatasetSink& sink, const Batches& batches) {
  ASSIGN_OR_RETURN(std::unique_ptr<SinkLocalState> local, sink.NewLocalState());
  for (const auto& batch : batches) {
    ASSIGN_OR_RETURN(std::unique_ptr<SinkPartial> partial, sink.Consume(local.get(), batch));
    RETURN_NOT_OK(sink.Merge(partial.get()));
    RETURN_NOT_OK(sink.Process(partial.get()));
    RETURN_NOT_OK(sink.Emit(partial.get()));
  }
  ASSIGN_OR_RETURN(std::unique_ptr<SinkPartial> rest, sink.Drain());
  if (rest != nullptr) {
    RETURN_NOT_OK(sink.Process(rest.get()));
    RETURN_NOT_OK(sink.Emit(rest.get()));
  }
  return sink.Commit();
}

struct Case {
  Compression compression;
  int64_t max_pending_bytes;  // the default, or 600 KiB: held batches make chunks be taken early
  bool in_order = false;      // the file system hides positional writes: uncompressed chunks appended by Emit
};

// A memory file system; with `in_order`, one that cannot write at offsets.
std::shared_ptr<FileSystem> OutputFileSystem(std::shared_ptr<MemoryFileSystem> memory, bool in_order) {
  if (!in_order) return memory;
  auto faults = std::make_shared<FaultInjectingFileSystem>(std::move(memory));
  FileSystemCapabilities shown;
  shown.positional_writes = false;
  faults->set_capabilities(shown);
  return faults;
}

// The options of the tests: CSV in two shards under /out.
SinkOptions TwoCsvShards() {
  SinkOptions options = SinkOptions::Defaults();
  options.output = "/out";
  options.sync = false;
  options.sharding.value = 2;
  options.format = [](SchemaPtr schema) { return csv::MakeCsvOutputFormat(std::move(schema)); };
  return options;
}

// The two shards' bytes.
std::string Shards(FileSystem& fs, std::string_view suffix = "") {
  std::string out;
  for (const char* shard : {"00000", "00001"}) {
    auto file = fs.ReadWholeFile("/out/part-" + std::string(shard) + "-of-00002.csv" + std::string(suffix));
    out.append(file.ok() ? std::string((*file)->view()) : file.status().ToString()).append("|");
  }
  return out;
}

class DatasetSinkChunkTest : public ::testing::TestWithParam<Case> {};

TEST_P(DatasetSinkChunkTest, LongAndShortRunsAndTheHeaderComeOutInInputOrder) {
  // Two shards: each batch is cut into two runs. Runs of 1000 rows of 100-byte text (over 100 KiB)
  // go into chunks as pieces of the encoded batch, shared by both files; the runs of the 3-row
  // batches between them are copied behind them; chunks of 1 MiB (512 KiB) are cut across
  // batches, and with 600 KiB pending allowed the batches held by both files' chunks make the
  // fuller file's chunk be taken before it is full.
  std::vector<std::string> lines;  // by id
  Batches batches;
  for (int round = 0; round < 12; ++round) {
    for (const auto& [rows, width] : {std::pair{2000, 100}, std::pair{3, 10}}) {
      std::string csv;
      batches.push_back(Rows(static_cast<int64_t>(lines.size()), rows, static_cast<size_t>(width), &csv));
      for (size_t at = 0; at < csv.size();) {
        const size_t lf = csv.find('\n', at);
        lines.push_back(csv.substr(at, lf + 1 - at));
        at = lf + 1;
      }
    }
  }
  auto fs = std::make_shared<MemoryFileSystem>();
  SinkOptions options = TwoCsvShards();
  options.compression = GetParam().compression;
  options.max_pending_bytes = GetParam().max_pending_bytes;
  options.chunk_bytes = std::min(options.chunk_bytes, options.max_pending_bytes * 7 / 8);
  auto sink = DatasetSink::Open(options, RowSchema(), OutputFileSystem(fs, GetParam().in_order));
  ASSERT_TRUE(sink.ok()) << sink.status().ToString();
  ASSERT_TRUE(WriteAll(**sink, batches).ok());
  EXPECT_EQ((*sink)->stats().records, static_cast<int64_t>(lines.size()));
  std::vector<bool> seen(lines.size(), false);
  for (const char* shard : {"00000", "00001"}) {
    const std::string path = "/out/part-" + std::string(shard) + "-of-00002.csv" +
                             std::string(CompressionSuffix(options.compression));
    auto file = fs->ReadWholeFile(path);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    std::string text((*file)->view());
    if (options.compression != Compression::kNone) {
      auto inflated = DecompressBuffer(options.compression, {(*file)->data(), static_cast<size_t>((*file)->size())});
      ASSERT_TRUE(inflated.ok()) << inflated.status().ToString();
      text = std::string((*inflated)->view());
    }
    ASSERT_EQ(text.substr(0, 8), "id,text\n") << path;
    // Every line is a row's, whole, and a file's rows come in input order.
    int64_t last = -1;
    for (size_t at = 8; at < text.size();) {
      const size_t lf = text.find('\n', at);
      ASSERT_NE(lf, std::string::npos) << path << " ends inside a row";
      const int64_t id = std::stoll(text.substr(at, text.find(',', at) - at));
      ASSERT_GT(id, last) << path << " at byte " << at;
      ASSERT_LT(id, static_cast<int64_t>(lines.size()));
      ASSERT_EQ(text.substr(at, lf + 1 - at), lines[static_cast<size_t>(id)]) << path << " at byte " << at;
      seen[static_cast<size_t>(id)] = true;
      last = id;
      at = lf + 1;
    }
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), static_cast<int64_t>(lines.size()));
}

INSTANTIATE_TEST_SUITE_P(All, DatasetSinkChunkTest,
                         ::testing::Values(Case{Compression::kNone, int64_t{64} << 20},
                                           Case{Compression::kNone, int64_t{600} << 10},
                                           Case{Compression::kNone, int64_t{64} << 20, true},
                                           Case{Compression::kNone, int64_t{600} << 10, true},
                                           Case{Compression::kGzip, int64_t{64} << 20},
                                           Case{Compression::kGzip, int64_t{600} << 10}));

// Batches of 2000 rows of 100-byte text (two 100 KiB runs each, so chunks of 1 MiB are cut every
// few batches) and 3-row ones between them.
Batches MixedBatches() {
  Batches batches;
  std::string csv;
  int64_t next = 0;
  for (int round = 0; round < 12; ++round) {
    for (const auto& [rows, width] : {std::pair{2000, 100}, std::pair{3, 10}}) {
      batches.push_back(Rows(next, rows, static_cast<size_t>(width), &csv));
      next += rows;
    }
  }
  return batches;
}

TEST(DatasetSinkPositionalTest, ChunksProcessedInAnyOrderLandWhereMergePutThem) {
  // Every batch consumed and merged first, then processed last to first (as threads may finish
  // them), then emitted in order: the files (ten chunks of 128 KiB each) are byte for byte those
  // appended in order.
  const Batches batches = MixedBatches();
  SinkOptions options = TwoCsvShards();
  options.chunk_bytes = 128 << 10;
  auto appended = std::make_shared<MemoryFileSystem>();
  {
    auto sink = DatasetSink::Open(options, RowSchema(), OutputFileSystem(appended, true));
    ASSERT_TRUE(sink.ok());
    ASSERT_TRUE(WriteAll(**sink, batches).ok());
  }
  auto positional = std::make_shared<MemoryFileSystem>();
  auto sink = DatasetSink::Open(options, RowSchema(), positional);
  ASSERT_TRUE(sink.ok());
  auto local = (*sink)->NewLocalState();
  ASSERT_TRUE(local.ok());
  std::vector<std::unique_ptr<SinkPartial>> partials;
  for (const auto& batch : batches) {
    auto partial = (*sink)->Consume(local->get(), batch);
    ASSERT_TRUE(partial.ok());
    ASSERT_TRUE((*sink)->Merge(partial->get()).ok());
    partials.push_back(std::move(*partial));
  }
  auto rest = (*sink)->Drain();
  ASSERT_TRUE(rest.ok());
  partials.push_back(std::move(*rest));
  for (auto it = partials.rbegin(); it != partials.rend(); ++it) ASSERT_TRUE((*sink)->Process(it->get()).ok());
  const std::string expected = Shards(*appended);
  std::string staged;  // Process wrote every byte: the staged files are whole before any Emit
  for (const std::string& path : *positional->ListFilesRecursively("/")) {  // in the job's staging tree
    if (path.find("/part-") != std::string::npos) staged += std::string((*positional->ReadWholeFile("/" + path))->view()) + "|";
  }
  EXPECT_TRUE(staged == expected) << "the staged files after Process";
  for (auto& partial : partials) ASSERT_TRUE((*sink)->Emit(partial.get()).ok());
  ASSERT_TRUE((*sink)->Commit().ok());
  EXPECT_GT(expected.size(), size_t{2} << 20);
  EXPECT_TRUE(Shards(*positional) == expected) << "positional output differs from the appended one";
  EXPECT_EQ((*sink)->stats().written_bytes, static_cast<int64_t>(expected.size()) - 2);
}

TEST(DatasetSinkPositionalTest, AFailedWriteAtAnOffsetFailsTheJobAndAbortLeavesNothing) {
  // The write fails in Process, where only the positional path writes (at the offset Merge
  // fixed); the in-order path writes in Emit, so a sink that took it would fail there and this
  // test with it.
  auto memory = std::make_shared<MemoryFileSystem>();
  auto faults = std::make_shared<FaultInjectingFileSystem>(memory);
  auto sink = DatasetSink::Open(TwoCsvShards(), RowSchema(), faults);
  ASSERT_TRUE(sink.ok());
  faults->FailNth(FsOperation::kWrite, 2, FsFault::kShort);
  auto local = (*sink)->NewLocalState();
  ASSERT_TRUE(local.ok());
  Status st;
  std::string failed_in;
  for (const auto& batch : MixedBatches()) {
    auto partial = (*sink)->Consume(local->get(), batch);
    ASSERT_TRUE(partial.ok());
    ASSERT_TRUE((*sink)->Merge(partial->get()).ok());
    st = (*sink)->Process(partial->get());
    if (!st.ok()) {
      failed_in = "Process";
      break;
    }
    st = (*sink)->Emit(partial->get());
    if (!st.ok()) {
      failed_in = "Emit";
      break;
    }
  }
  EXPECT_EQ(failed_in, "Process") << st.ToString();
  EXPECT_NE(st.ToString().find("No space left on device"), std::string::npos) << st.ToString();
  EXPECT_NE(st.ToString().find("part-0000"), std::string::npos) << "names the file: " << st.ToString();
  faults->Clear();
  ASSERT_TRUE((*sink)->Abort().ok());
  EXPECT_FALSE(*memory->Exists("/out"));
  auto left = memory->ListFilesRecursively("/");
  ASSERT_TRUE(left.ok());
  EXPECT_TRUE(left->empty()) << (*left)[0];
}

}  // namespace
}  // namespace recflow::dataset
