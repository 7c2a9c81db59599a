// Split's JSON form (round trip, hostile text refused), stale files, partition columns, and errors inside splits
// that name the file, the byte offset and the record; the read options each format's words give its splits.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "recflow/core/local_filesystem.h"
#include "recflow/dataset/io_specs.h"
#include "recflow/dataset/split_test_util_internal.h"
#include "recflow/formats/avro/avro_source.h"
#include "recflow/formats/avro/block_boundary.h"
#include "recflow/formats/tfrecord/framing.h"
#include "recflow/formats/tfrecord/record_writer.h"
#include "recflow/testing/testdata.h"

namespace recflow::dataset {
namespace {

Split Sample() {
  Split split;
  split.path = "/data/year=2024/caf\xc3\xa9 \"x\".tfrecord";
  split.format = "tfrecord";
  split.compression = "none";
  split.unit = SplitUnit::kBytes;
  split.begin = 64;
  split.end = int64_t{1} << 40;
  split.file_size = (int64_t{1} << 40) + 3;
  split.file_mtime_ns = 1764130000123456789;
  split.partition = {{"year", "int64", "2024"}, {"tag", "utf8", std::nullopt}, {"empty", "utf8", ""}};
  return split;
}

TEST(SplitJsonTest, RoundTrips) {
  const Split split = Sample();
  const std::string json = SplitToJson(split);
  EXPECT_EQ(json.find('\n'), std::string::npos);
  auto parsed = ParseSplit(json);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(*parsed, split);
  Split batches = split;
  batches.unit = SplitUnit::kBatches;
  batches.partition.clear();
  auto again = ParseSplit(SplitToJson(batches));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, batches);
}

TEST(SplitJsonTest, RefusesMalformedText) {
  const std::string good = SplitToJson(Sample());
  auto with = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  };
  const std::vector<std::string> bad = {
      "",
      "[]",
      "{",
      good + "x",
      with("\"begin\":64", "\"begin\":-1"),
      with("\"begin\":64", "\"begin\":1.5"),
      with("\"begin\":64", "\"begin\":\"64\""),
      with("\"begin\":64", "\"begin\":18446744073709551615"),
      with("\"begin\":64", "\"begin\":1099511627777"),  // after end
      with("\"begin\":64,", ""),                         // missing
      with("\"begin\":64", "\"begin\":64,\"begin\":64"),  // repeated
      with("\"begin\":64", "\"begin\":64,\"extra\":1"),   // unknown
      with("\"unit\":\"bytes\"", "\"unit\":\"rows\""),
      with("\"format\":\"tfrecord\"", "\"format\":\"\""),
      with("\"format\":\"tfrecord\"", "\"format\":\"a\\u0000b\""),
      with("[\"year\",\"int64\",\"2024\"]", "[\"year\",\"2024\"]"),
      with("[\"year\",\"int64\",\"2024\"]", "[\"year\",\"int64\",2024]"),
      with("[\"year\",\"int64\",\"2024\"]", "{\"year\":\"2024\"}"),
      "{\"path\":\"" + std::string(size_t{1} << 20, 'a') + "\"}",
  };
  for (const std::string& text : bad) {
    auto parsed = ParseSplit(text);
    ASSERT_FALSE(parsed.ok()) << text.substr(0, 200);
    EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(parsed.status().message().find("bad split"), std::string::npos);
  }
}

void WriteText(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::vector<Split> MakeSplitsOf(const SplitInput& input, int64_t bytes) {
  SplitOptions options = SplitOptions::Defaults();
  options.target_bytes = bytes;
  auto splits = MakeSplits({input}, options);
  EXPECT_TRUE(splits.ok()) << splits.status().ToString();
  return splits.ok() ? *splits : std::vector<Split>();
}

SchemaPtr JsonlSchema() { return Schema::Make({Field::Make("i", int64()), Field::Make("s", utf8())}); }

TEST(SplitSourceTest, ChangedFileFailsClearly) {
  testing::ScratchDir dir;
  const std::string path = dir.File("rows.jsonl");
  WriteText(path, "{\"i\": 1, \"s\": \"a\"}\n{\"i\": 2, \"s\": \"b\"}\n");
  const std::vector<Split> splits = MakeSplitsOf(InputOf(path, "jsonl"), 10);
  ASSERT_EQ(splits.size(), 4u);
  // Same size, another modification time: the bytes may differ.
  const auto written = std::filesystem::last_write_time(path);
  std::filesystem::last_write_time(path, written + std::chrono::seconds(1));
  auto touched = OpenSplit(splits[1], JsonlSchema(), InputOptions());
  ASSERT_FALSE(touched.ok());
  EXPECT_NE(touched.status().message().find("modification time"), std::string::npos) << touched.status().ToString();
  std::filesystem::last_write_time(path, written);
  ASSERT_TRUE(OpenSplit(splits[1], JsonlSchema(), InputOptions()).ok());
  std::ofstream(path, std::ios::binary | std::ios::app) << "{\"i\": 3, \"s\": \"c\"}\n";
  auto source = OpenSplit(splits[1], JsonlSchema(), InputOptions());
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().code(), StatusCode::kDataError);
  EXPECT_EQ(source.status().context().file, path);
  EXPECT_NE(source.status().message().find("changed since the split was made"), std::string::npos)
      << source.status().ToString();
  std::filesystem::remove(path);
  auto gone = OpenSplit(splits[1], JsonlSchema(), InputOptions());
  ASSERT_FALSE(gone.ok());
  EXPECT_NE(gone.status().message().find("make the splits again"), std::string::npos);
}

TEST(SplitSourceTest, AppendsPartitionColumnsFromTheSplit) {
  testing::ScratchDir dir;
  const std::string path = dir.File("rows.jsonl");
  WriteText(path, "{\"i\": 1, \"s\": \"a\"}\n{\"i\": 2, \"s\": \"b\"}\n");
  SplitInput input = InputOf(path, "jsonl");
  input.partition = {{"year", "int64", "2024"}, {"tag", "utf8", std::nullopt}};
  const std::vector<Split> splits = MakeSplitsOf(input, 1 << 20);
  ASSERT_EQ(splits.size(), 1u);
  const SchemaPtr schema = Schema::Make({Field::Make("i", int64()), Field::Make("s", utf8()),
                                         Field::Make("year", int64()), Field::Make("tag", utf8())});
  auto source = OpenSplit(splits[0], schema, InputOptions());
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  auto batch = ReadAll(**source);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_EQ((*batch)->num_rows(), 2);
  EXPECT_EQ((*batch)->column_data(2)->GetValues<int64_t>(1)[1], 2024);
  EXPECT_EQ((*batch)->column_data(3)->null_count, 2);
  auto recorded = PartitionSchemaOf(splits[0]);
  ASSERT_TRUE(recorded.ok());
  EXPECT_TRUE((*recorded)->Equals(*Schema::Make({Field::Make("year", int64()), Field::Make("tag", utf8())})));
  // The partition columns must close the schema, in the split's order, with the split's types.
  const SchemaPtr swapped = Schema::Make({Field::Make("i", int64()), Field::Make("s", utf8()),
                                          Field::Make("tag", utf8()), Field::Make("year", int64())});
  EXPECT_EQ(OpenSplit(splits[0], swapped, InputOptions()).status().code(),
            StatusCode::kInvalidArgument);
  const SchemaPtr retyped = Schema::Make({Field::Make("i", int64()), Field::Make("s", utf8()),
                                          Field::Make("year", utf8()), Field::Make("tag", utf8())});
  EXPECT_EQ(OpenSplit(splits[0], retyped, InputOptions()).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(OpenSplit(splits[0], Schema::Make({Field::Make("i", int64())}), InputOptions()).status().code(),
            StatusCode::kInvalidArgument);
}

// A TFRecord file of `count` records of `size` bytes; returns each record's header offset.
std::vector<int64_t> WriteRecords(const std::string& path, int count, size_t size) {
  auto writer = tfrecord::RecordWriter::Open(path, tfrecord::WriterOptions::Defaults(),
                                             *LocalFileSystem::Instance());
  EXPECT_TRUE(writer.ok());
  std::vector<int64_t> offsets;
  for (int i = 0; i < count; ++i) {
    offsets.push_back(static_cast<int64_t>(i) * (static_cast<int64_t>(size) + tfrecord::kFramingOverhead));
    EXPECT_TRUE((*writer)->Write(std::string(size, static_cast<char>('a' + i % 26))).ok());
  }
  EXPECT_TRUE((*writer)->Close().ok());
  return offsets;
}

void Corrupt(const std::string& path, int64_t offset) {
  std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
  file.seekg(offset);
  const char byte = static_cast<char>(file.get() ^ 0x5a);
  file.seekp(offset);
  file.put(byte);
}

/// Reads every split; expects exactly one to fail, with a DataError naming `path`, `offset` and a record.
void ExpectOneSplitFails(const std::vector<Split>& splits, const SchemaPtr& schema, const InputOptions& options,
                         const std::string& path, int64_t offset, bool expect_record = true) {
  int failures = 0;
  for (const Split& split : splits) {
    auto source = OpenSplit(split, schema, options);
    Result<std::shared_ptr<RecordBatch>> batch = source.ok() ? ReadAll(**source) : source.status();
    if (batch.ok()) continue;
    ++failures;
    const Status& st = batch.status();
    EXPECT_EQ(st.code(), StatusCode::kDataError) << st.ToString();
    EXPECT_EQ(st.context().file, path) << st.ToString();
    EXPECT_EQ(st.context().offset, offset) << st.ToString();
    if (expect_record) {
      EXPECT_GE(st.context().record, 0) << st.ToString();
    }
    EXPECT_NE(st.message().find("count from its first record"), std::string::npos) << st.ToString();
  }
  EXPECT_EQ(failures, 1);
}

TEST(SplitSourceTest, CorruptTfrecordBytesNameFileOffsetAndRecord) {
  const InputOptions options = ReadWords({{"record_type", "bytes"}});
  const SchemaPtr schema = Schema::Make({Field::Make("bytes", binary())});
  // A bad data CRC, a bad length CRC: whatever the split size, one split reports it.
  for (const int64_t damage : {tfrecord::kHeaderSize + 3, int64_t{2}}) {
    for (const int64_t bytes : {1, 7, 30, 45, 100, 1000}) {
      SCOPED_TRACE("damage at +" + std::to_string(damage) + ", split size " + std::to_string(bytes));
      testing::ScratchDir dir;
      const std::string path = dir.File("bad.tfrecord");
      const std::vector<int64_t> offsets = WriteRecords(path, 12, 17);
      Corrupt(path, offsets[5] + damage);
      ExpectOneSplitFails(MakeSplitsOf(InputOf(path, "tfrecord"), bytes), schema, options, path, offsets[5]);
    }
  }
}

TEST(SplitSourceTest, BadCsvValueNamesFileOffsetAndRow) {
  testing::ScratchDir dir;
  const std::string path = dir.File("bad.csv");
  std::string text = "a,b\n";
  int64_t bad_offset = 0;
  for (int i = 0; i < 40; ++i) {
    if (i == 27) bad_offset = static_cast<int64_t>(text.size());
    text += (i == 27 ? std::string("x") : std::to_string(i)) + ",\"q\nq\"\n";
  }
  WriteText(path, text);
  const SchemaPtr schema = Schema::Make({Field::Make("a", int64()), Field::Make("b", utf8())});
  for (const int64_t bytes : {1, 13, 64, 1000}) {
    SCOPED_TRACE("split size " + std::to_string(bytes));
    ExpectOneSplitFails(MakeSplitsOf(InputOf(path, "csv"), bytes), schema, InputOptions(), path,
                        bad_offset);
  }
}

TEST(SplitSourceTest, BrokenAvroSyncMarkerFailsWhereTheWholeReadDoes) {
  testing::ScratchDir dir;
  const std::string path = dir.File("events.avro");
  std::filesystem::copy_file(std::string(RECFLOW_AVRO_TESTDATA) + "/events_null.avro", path);
  auto data = Buffer::MapFile(path);
  ASSERT_TRUE(data.ok());
  auto layout = avro::ReadContainerLayout(*data, path);
  ASSERT_TRUE(layout.ok());
  // The sync marker that ends the second block.
  const int64_t second = avro::BlockStartAtOrAfter(**data, *layout, layout->header_size + 1);
  const int64_t third = avro::BlockStartAtOrAfter(**data, *layout, second + 1);
  ASSERT_LT(third, (*data)->size());
  data->reset();
  Corrupt(path, third - 16);
  auto whole = avro::OpenAvroSource(path, avro::ReadOptions::Defaults());
  ASSERT_TRUE(whole.ok());
  auto read = ReadAll(**whole);
  ASSERT_FALSE(read.ok());
  const SchemaPtr schema = (*whole)->schema();
  for (const int64_t bytes : {7, 100, 1000, 5000}) {
    SCOPED_TRACE("split size " + std::to_string(bytes));
    ExpectOneSplitFails(MakeSplitsOf(InputOf(path, "avro"), bytes), schema, InputOptions(), path,
                        read.status().context().offset, /*expect_record=*/false);
  }
}

TEST(SplitSourceTest, CsvSplitNotAtARowStartIsRefused) {
  testing::ScratchDir dir;
  const std::string path = dir.File("rows.csv");
  WriteText(path, "a,b\n1,2\n3,4\n");
  std::vector<Split> splits = MakeSplitsOf(InputOf(path, "csv"), 1 << 20);
  ASSERT_EQ(splits.size(), 1u);
  splits[0].begin = 5;  // inside "1,2"
  auto source = OpenSplit(splits[0], Schema::Make({Field::Make("a", int64()), Field::Make("b", int64())}),
                          InputOptions());
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().code(), StatusCode::kDataError);
  EXPECT_EQ(source.status().context().offset, 5);
  EXPECT_NE(source.status().message().find("row starts"), std::string::npos) << source.status().ToString();
}

TEST(SplitSourceTest, CompressedFileSplitMustBeWhole) {
  testing::ScratchDir dir;
  const std::string path = dir.File("rows.jsonl");
  WriteText(path, "{}\n");
  SplitInput input = InputOf(path, "jsonl");
  input.compression = "gzip";
  std::vector<Split> splits = MakeSplitsOf(input, 1);
  ASSERT_EQ(splits.size(), 1u);
  splits[0].end = 1;
  EXPECT_EQ(OpenSplit(splits[0], JsonlSchema(), InputOptions()).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(SplitSourceTest, SplitsChainInTheOrderGiven) {
  testing::ScratchDir dir;
  const std::string path = dir.File("rows.jsonl");
  WriteText(path, "{\"i\": 1, \"s\": \"a\"}\n{\"i\": 2, \"s\": \"b\"}\n{\"i\": 3, \"s\": \"c\"}\n");
  std::vector<Split> splits = MakeSplitsOf(InputOf(path, "jsonl"), 19);
  ASSERT_EQ(splits.size(), 3u);
  std::swap(splits[0], splits[2]);
  auto source = OpenSplits(splits, JsonlSchema(), InputOptions());
  ASSERT_TRUE(source.ok());
  auto batch = ReadAll(**source);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_EQ((*batch)->num_rows(), 3);
  const int64_t* i = (*batch)->column_data(0)->GetValues<int64_t>(1);
  EXPECT_EQ(i[0], 3);
  EXPECT_EQ(i[1], 2);
  EXPECT_EQ(i[2], 1);
}

TEST(SplitReadOptionsTest, EachFormatsWordsReachItsSplitter) {
  // The read's words reach each format's splitter through its descriptor's options: CSV's
  // dialect both where MakeSplits cuts and how a split reads, TFRecord's record type.
  testing::ScratchDir dir;
  const std::string csv = dir.File("semi.csv");
  std::string text = "k;v\n";
  for (int i = 0; i < 30; ++i) text += std::to_string(i) + ";'x\ny'\n";
  WriteText(csv, text);
  const InputOptions read = ReadWords({{"delimiter", ";"}, {"quote", "'"}});
  SplitOptions options = SplitOptions::Defaults();
  options.target_bytes = 7;
  options.read = read;
  auto splits = MakeSplits({InputOf(csv, "csv")}, options);
  ASSERT_TRUE(splits.ok()) << splits.status().ToString();
  ASSERT_GT(splits->size(), 2u);
  const SchemaPtr schema = Schema::Make({Field::Make("k", int64()), Field::Make("v", utf8())});
  auto rows = ReadSplitsShuffled(*splits, schema, read, 1);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ((*rows)->num_rows(), 30);
  // With the default dialect the same file's splits fall inside quoted fields: not row starts.
  auto default_splits = MakeSplits({InputOf(csv, "csv")}, [] {
    SplitOptions o = SplitOptions::Defaults();
    o.target_bytes = 7;
    return o;
  }());
  ASSERT_TRUE(default_splits.ok());
  EXPECT_NE(*default_splits, *splits);

  const std::string tfrecord = dir.File("raw.tfrecord");
  auto writer = tfrecord::RecordWriter::Open(tfrecord, tfrecord::WriterOptions::Defaults(),
                                             *LocalFileSystem::Instance());
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Write("not an Example").ok());
  ASSERT_TRUE((*writer)->Close().ok());
  auto tf_splits = MakeSplits({InputOf(tfrecord, "tfrecord")}, SplitOptions::Defaults());
  ASSERT_TRUE(tf_splits.ok());
  auto bytes = ReadSplitsShuffled(*tf_splits, Schema::Make({Field::Make("bytes", binary())}),
                                  ReadWords({{"record_type", "bytes"}}), 1);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ((*bytes)->num_rows(), 1);
  EXPECT_FALSE(ReadSplitsShuffled(*tf_splits, Schema::Make({Field::Make("bytes", binary())}), InputOptions(), 1).ok());
}

}  // namespace
}  // namespace recflow::dataset
