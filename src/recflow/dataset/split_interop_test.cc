// Splits of real files (TensorFlow's mnist, Python Avro, Arrow's integration files, a real CSV) and generated ones:
// every split read on its own, in shuffled order, gives exactly the whole file's records, for many split sizes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "recflow/core/io.h"
#include "recflow/core/local_filesystem.h"
#include "recflow/dataset/split_test_util_internal.h"
#include "recflow/formats/arrow_ipc/arrow_source.h"
#include "recflow/formats/avro/avro_source.h"
#include "recflow/formats/csv/csv_source.h"
#include "recflow/formats/jsonl/jsonl_source.h"
#include "recflow/formats/tfrecord/record_writer.h"
#include "recflow/formats/tfrecord/tfrecord_source.h"
#include "recflow/testing/testdata.h"

namespace recflow::dataset {
namespace {

SplitOptions TargetBytes(int64_t bytes) {
  SplitOptions options = SplitOptions::Defaults();
  options.target_bytes = bytes;
  return options;
}

int64_t FileSize(const std::string& path) { return static_cast<int64_t>(std::filesystem::file_size(path)); }

/// The sizes every format is split at: 1 byte, small primes, about a third, the whole and more.
std::vector<int64_t> Sizes(const std::string& path, std::vector<int64_t> small) {
  const int64_t size = FileSize(path);
  for (const int64_t s : {std::max<int64_t>(1, size / 3), size, 2 * size}) small.push_back(s);
  return small;
}

std::shared_ptr<RecordBatch> ReadWhole(Result<std::unique_ptr<Source>> source) {
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  if (!source.ok()) return nullptr;
  auto batch = ReadAll(**source);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return batch.ok() ? *batch : nullptr;
}

void WriteText(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

/// Writes `count` records of 0 to `max_bytes - 1` random bytes to `path` and expects its splits
/// (sizes as Sizes() extends `sizes`) to read as the whole file, records as raw bytes.
void ExpectRawTfrecordSplitsReadWhole(const std::string& path, int count, uint32_t max_bytes,
                                      std::vector<int64_t> sizes) {
  auto writer = tfrecord::RecordWriter::Open(path, tfrecord::WriterOptions::Defaults(),
                                             *LocalFileSystem::Instance());
  ASSERT_TRUE(writer.ok());
  std::mt19937 random(static_cast<uint32_t>(count));
  for (int i = 0; i < count; ++i) {
    std::string record(random() % max_bytes, '\0');
    for (char& c : record) c = static_cast<char>(random());
    ASSERT_TRUE((*writer)->Write(record).ok());
  }
  ASSERT_TRUE((*writer)->Close().ok());
  tfrecord::SourceOptions raw = tfrecord::SourceOptions::Defaults();
  raw.record_type = example::RecordType::kByteArray;
  auto whole = ReadWhole(tfrecord::OpenTfrecordSource(path, raw));
  ASSERT_NE(whole, nullptr);
  ASSERT_EQ(whole->num_rows(), count);
  ExpectSplitsReadWhole(InputOf(path, "tfrecord"), whole, ReadWords({{"record_type", "bytes"}}),
                        Sizes(path, std::move(sizes)));
}

TEST(SplitInteropTest, TensorflowMnistTfrecord) {
  RECFLOW_REQUIRE_TESTDATA();
  const std::string path = (testing::TestdataDir() / "tfrecord/tfx/mnist.tfrecord").string();
  auto whole = ReadWhole(tfrecord::OpenTfrecordSource(path, tfrecord::SourceOptions::Defaults()));
  ASSERT_NE(whole, nullptr);
  ASSERT_EQ(whole->num_rows(), 1000);
  ExpectSplitsReadWhole(InputOf(path, "tfrecord"), whole, InputOptions(), Sizes(path, {4099, 65537}));
}

TEST(SplitInteropTest, GeneratedTfrecordOfRawRecords) {
  testing::ScratchDir dir;
  const std::string path = dir.File("raw.tfrecord");
  ExpectRawTfrecordSplitsReadWhole(path, 300, 40, {1, 2, 3, 5, 7, 11, 13, 97});
}

TEST(SplitInteropTest, GzipTfrecordIsOneSplit) {
  RECFLOW_REQUIRE_TESTDATA();
  const std::string path = (testing::TestdataDir() / "tfrecord/tfx/penguin-train.tfrecord.gz").string();
  auto whole = ReadWhole(tfrecord::OpenTfrecordSource(path, tfrecord::SourceOptions::Defaults()));
  ASSERT_NE(whole, nullptr);
  auto splits = MakeSplits({InputOf(path, "tfrecord", "gzip")}, TargetBytes(100));
  ASSERT_TRUE(splits.ok());
  ASSERT_EQ(splits->size(), 1u);
  EXPECT_EQ((*splits)[0].end, FileSize(path));
  ExpectSplitsReadWhole(InputOf(path, "tfrecord", "gzip"), whole, InputOptions(), {1, 100});
}

std::shared_ptr<RecordBatch> ReadCsv(const std::string& path, const csv::ReadOptions& options) {
  auto in = FileInputStream::Open(path);
  EXPECT_TRUE(in.ok());
  return ReadWhole(csv::OpenCsvSource(*std::move(in), options));
}

TEST(SplitInteropTest, PenguinsCsv) {
  RECFLOW_REQUIRE_TESTDATA();
  const std::string path = (testing::TestdataDir() / "csv/penguins_processed.csv").string();
  auto whole = ReadCsv(path, csv::ReadOptions::Defaults());
  ASSERT_NE(whole, nullptr);
  ExpectSplitsReadWhole(InputOf(path, "csv"), whole, InputOptions(), Sizes(path, {1, 2, 3, 7, 13, 97, 1009}));
}

TEST(SplitInteropTest, CsvWithNewlinesInQuotedFields) {
  testing::ScratchDir dir;
  const std::string path = dir.File("quoted.csv");
  std::string text = "id,text,n\r\n";
  for (int i = 0; i < 60; ++i) {
    // Quoted fields holding LFs, CRLFs, doubled quotes and lines that look like rows.
    text += std::to_string(i) + ",\"line one\n" + std::to_string(i + 100) + ",\"\"x\"\",7\nlast\"," +
            std::to_string(i * 3) + (i % 2 ? "\r\n" : "\n");
    text += std::to_string(i) + ",plain," + (i % 5 ? std::to_string(i) : std::string()) + "\n";
    text += std::to_string(i) + ",\"\n\n\",1\n";
  }
  WriteText(path, text);
  auto whole = ReadCsv(path, csv::ReadOptions::Defaults());
  ASSERT_NE(whole, nullptr);
  ASSERT_EQ(whole->num_rows(), 180);
  ExpectSplitsReadWhole(InputOf(path, "csv"), whole, InputOptions(), Sizes(path, {1, 2, 3, 5, 7, 11, 13, 31}));
}

TEST(SplitInteropTest, CsvWithoutHeaderAndOtherDelimiter) {
  testing::ScratchDir dir;
  const std::string path = dir.File("semi.csv");
  std::string text;
  for (int i = 0; i < 50; ++i) text += std::to_string(i) + ";'a;\nb'\n";
  WriteText(path, text);
  csv::ReadOptions options = csv::ReadOptions::Defaults();
  options.header = false;
  options.dialect.delimiter = ';';
  options.dialect.quote = '\'';
  auto whole = ReadCsv(path, options);
  ASSERT_NE(whole, nullptr);
  ASSERT_EQ(whole->num_rows(), 50);
  ExpectSplitsReadWhole(InputOf(path, "csv"), whole, ReadWords({{"header", "false"}, {"delimiter", ";"}, {"quote", "'"}}),
                        Sizes(path, {1, 2, 5, 11}));
}

TEST(SplitInteropTest, CsvWithCommentLinesBeforeTheHeader) {
  testing::ScratchDir dir;
  const std::string path = dir.File("commented.csv");
  std::string text = "\xEF\xBB\xBF# exported by hand\n#, \"not a header\n# either\nk,v\n";
  for (int i = 0; i < 40; ++i) text += (i % 9 == 0 ? "# a comment row\n" : "") + std::to_string(i) + ",\"x\ny\"\n";
  WriteText(path, text);
  csv::ReadOptions options = csv::ReadOptions::Defaults();
  options.dialect.comment = '#';
  auto whole = ReadCsv(path, options);
  ASSERT_NE(whole, nullptr);
  ASSERT_EQ(whole->num_rows(), 40);
  ASSERT_EQ(whole->schema()->field(0)->name(), "k");
  ExpectSplitsReadWhole(InputOf(path, "csv"), whole, ReadWords({{"comment", "#"}}), Sizes(path, {1, 2, 3, 7, 13}));
}

TEST(SplitInteropTest, JsonLines) {
  testing::ScratchDir dir;
  const std::string path = dir.File("rows.jsonl");
  std::string text;
  for (int i = 0; i < 120; ++i) {
    text += "{\"i\": " + std::to_string(i) + ", \"s\": \"a\\nb \\u00e9 " + std::to_string(i) + "\"}" +
            (i % 3 ? "\n" : "\r\n");
    if (i % 7 == 0) text += "\n  \n";
  }
  WriteText(path, text);
  auto in = FileInputStream::Open(path);
  ASSERT_TRUE(in.ok());
  auto whole = ReadWhole(jsonl::OpenJsonlSource(*std::move(in), jsonl::ReadOptions::Defaults()));
  ASSERT_NE(whole, nullptr);
  ASSERT_EQ(whole->num_rows(), 120);
  ExpectSplitsReadWhole(InputOf(path, "jsonl"), whole, InputOptions(), Sizes(path, {1, 2, 3, 5, 7, 13, 101}));
}

TEST(SplitInteropTest, GeneratedLargerFiles) {
  testing::ScratchDir dir;
  // About 6 MiB of TFRecord records of 0 to 8 KiB random bytes.
  ExpectRawTfrecordSplitsReadWhole(dir.File("large.tfrecord"), 1500, 8192, {65537, 1 << 20});
  std::mt19937 random(11);
  // About 4 MiB of CSV whose quoted fields hold newlines and doubled quotes.
  const std::string csv_path = dir.File("large.csv");
  std::string text = "id,note,x\n";
  for (int i = 0; text.size() < (size_t{4} << 20); ++i) {
    text += std::to_string(i) + ",\"" + std::string(random() % 60, 'n') + "\n\"\"" + std::to_string(i) + "\"\",\n" +
            std::string(random() % 40, 'q') + "\"," + std::to_string(random() % 1000) + "\n";
  }
  WriteText(csv_path, text);
  auto csv_whole = ReadCsv(csv_path, csv::ReadOptions::Defaults());
  ASSERT_NE(csv_whole, nullptr);
  ExpectSplitsReadWhole(InputOf(csv_path, "csv"), csv_whole, InputOptions(),
                        Sizes(csv_path, {65537, 1 << 20}));
}

class AvroSplitTest : public ::testing::TestWithParam<std::string> {};

TEST_P(AvroSplitTest, PythonWrittenContainer) {
  const std::string path = std::string(RECFLOW_AVRO_TESTDATA) + "/" + GetParam();
  auto whole = ReadWhole(avro::OpenAvroSource(path, avro::ReadOptions::Defaults()));
  ASSERT_NE(whole, nullptr);
  ASSERT_GT(whole->num_rows(), 0);
  // 1-byte splits of the smaller file only: each split reads and compiles the header's schema.
  const std::vector<int64_t> small = GetParam() == "events_deflate.avro" ? std::vector<int64_t>{1, 101, 1009}
                                                                         : std::vector<int64_t>{7, 101, 1009};
  ExpectSplitsReadWhole(InputOf(path, "avro"), whole, InputOptions(), Sizes(path, small));
}

INSTANTIATE_TEST_SUITE_P(Codecs, AvroSplitTest, ::testing::Values("events_null.avro", "events_deflate.avro"));

class ArrowSplitTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ArrowSplitTest, IntegrationFile) {
  RECFLOW_REQUIRE_TESTDATA();
  const std::string path = (testing::TestdataDir() / "arrow-integration" / GetParam()).string();
  const bool file = path.ends_with(".arrow_file");
  auto whole = ReadWhole(arrow_ipc::OpenArrowSource(
      path, file ? formats::ContentKind::kArrowFile : formats::ContentKind::kArrowStream));
  ASSERT_NE(whole, nullptr);
  ExpectSplitsReadWhole(InputOf(path, "arrow"), whole, InputOptions(), Sizes(path, {1, 1000}));
}

INSTANTIATE_TEST_SUITE_P(Files, ArrowSplitTest,
                         ::testing::Values("1.0.0-littleendian/generated_dictionary.arrow_file",
                                           "1.0.0-littleendian/generated_decimal.arrow_file",
                                           "1.0.0-littleendian/generated_nested.arrow_file",
                                           "1.0.0-littleendian/generated_nested.stream"));

}  // namespace
}  // namespace recflow::dataset
