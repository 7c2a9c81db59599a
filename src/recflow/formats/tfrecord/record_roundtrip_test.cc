// Round trips through RecordWriter and RecordReader: codecs, inputs, empty records and files.
#include <gtest/gtest.h>

#include <filesystem>

#include "recflow/core/memory_filesystem.h"
#include "recflow/formats/tfrecord/test_util_internal.h"
#include "recflow/testing/testdata.h"

namespace recflow::tfrecord {
namespace {

using testing::EncodeRecords;
using testing::ReadAll;
using testing::SampleRecords;

std::shared_ptr<Buffer> AsBuffer(std::string bytes) { return Buffer::FromString(std::move(bytes)); }

std::vector<std::string> ReadBuffer(const std::string& bytes, const std::string& name,
                                    Compression expected_compression) {
  auto reader = RecordReader::FromBuffer(AsBuffer(bytes), name, ReaderOptions::Defaults());
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return {};
  EXPECT_EQ((*reader)->compression(), expected_compression);
  auto records = ReadAll(**reader);
  EXPECT_TRUE(records.ok()) << records.status().ToString();
  return records.ok() ? *records : std::vector<std::string>{};
}

std::vector<std::string> ReadStream(const std::string& bytes, const std::string& name) {
  auto reader = RecordReader::FromStream(std::make_unique<BufferInputStream>(AsBuffer(bytes), name),
                                         ReaderOptions::Defaults());
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return {};
  auto records = ReadAll(**reader);
  EXPECT_TRUE(records.ok()) << records.status().ToString();
  return records.ok() ? *records : std::vector<std::string>{};
}

class RoundTripTest : public ::testing::TestWithParam<Compression> {};

TEST_P(RoundTripTest, BufferAndStream) {
  const std::vector<std::string> records = SampleRecords(200);
  auto bytes = EncodeRecords(records, GetParam());
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(ReadBuffer(*bytes, "data.tfrecord", GetParam()), records);
  EXPECT_EQ(ReadStream(*bytes, "data.tfrecord"), records);
}

TEST_P(RoundTripTest, EmptyRecordsOnly) {
  const std::vector<std::string> records(5, std::string());
  auto bytes = EncodeRecords(records, GetParam());
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(ReadBuffer(*bytes, "empty-records", GetParam()), records);
  EXPECT_EQ(ReadStream(*bytes, "empty-records"), records);
}

TEST_P(RoundTripTest, ZeroRecords) {
  auto bytes = EncodeRecords({}, GetParam());
  ASSERT_TRUE(bytes.ok());
  EXPECT_TRUE(ReadBuffer(*bytes, "nothing", GetParam()).empty());
  EXPECT_TRUE(ReadStream(*bytes, "nothing").empty());
}

TEST_P(RoundTripTest, RecordsLargerThanTheStreamWindow) {
  std::vector<std::string> records;
  for (size_t size : {size_t{3} << 20, size_t{1}, size_t{700} << 10, size_t{5} << 20}) {
    std::string r(size, '\0');
    for (size_t j = 0; j < size; ++j) r[j] = static_cast<char>(j * 131 % 251);
    records.push_back(std::move(r));
  }
  auto bytes = EncodeRecords(records, GetParam());
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(ReadBuffer(*bytes, "big", GetParam()), records);
  EXPECT_EQ(ReadStream(*bytes, "big"), records);
}

TEST_P(RoundTripTest, FilesThroughOpenOnTheirFileSystem) {
  // The file exists only in memory: the writer and the reader both go through the file system.
  auto memory = std::make_shared<MemoryFileSystem>();
  const std::vector<std::string> records = SampleRecords(50);
  const std::string suffix = GetParam() == Compression::kGzip   ? ".gz"
                             : GetParam() == Compression::kZlib ? ".zz"
                                                                : "";
  const std::string path = "/out.tfrecord" + suffix;
  WriterOptions options = WriterOptions::Defaults();
  options.compression = GetParam();
  {
    auto writer = RecordWriter::Open(path, options, *memory);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    for (const std::string& r : records) ASSERT_TRUE((*writer)->Write(r).ok());
    EXPECT_EQ((*writer)->records_written(), 50);
    ASSERT_TRUE((*writer)->Close().ok());
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  ReaderOptions read_options = ReaderOptions::Defaults();
  read_options.file_system = memory;
  auto reader = RecordReader::Open(path, read_options);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->compression(), GetParam());
  EXPECT_EQ((*reader)->name(), path);
  auto read = ReadAll(**reader);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(*read, records);
}

INSTANTIATE_TEST_SUITE_P(Codecs, RoundTripTest,
                         ::testing::Values(Compression::kNone, Compression::kGzip, Compression::kZlib),
                         [](const auto& info) { return std::string(CompressionName(info.param)); });

TEST(RecordReaderTest, IndexOffsetAndBytesRead) {
  const std::vector<std::string> records = SampleRecords(10);
  auto bytes = EncodeRecords(records);
  ASSERT_TRUE(bytes.ok());
  const std::vector<int64_t> offsets = testing::RecordOffsets(records);
  auto reader = RecordReader::FromBuffer(AsBuffer(*bytes), "x", ReaderOptions::Defaults());
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->record_index(), -1);
  std::string_view record;
  for (int i = 0; i < 10; ++i) {
    auto more = (*reader)->Next(&record);
    ASSERT_TRUE(more.ok() && *more);
    EXPECT_EQ((*reader)->record_index(), i);
    EXPECT_EQ((*reader)->record_offset(), offsets[i]);
    EXPECT_EQ((*reader)->bytes_read(), offsets[i + 1]);
  }
  auto more = (*reader)->Next(&record);
  ASSERT_TRUE(more.ok());
  EXPECT_FALSE(*more);
}

TEST(RecordReaderTest, InMemoryViewsAreZeroCopy) {
  auto bytes = EncodeRecords({"hello", "world"});
  ASSERT_TRUE(bytes.ok());
  auto buffer = AsBuffer(*bytes);
  auto reader = RecordReader::FromBuffer(buffer, "x", ReaderOptions::Defaults());
  ASSERT_TRUE(reader.ok());
  std::string_view record;
  ASSERT_TRUE(*(*reader)->Next(&record));
  EXPECT_EQ(reinterpret_cast<const uint8_t*>(record.data()), buffer->data() + kHeaderSize);
}

TEST(RecordReaderTest, ConcatenatedGzipMembers) {
  const std::vector<std::string> first = SampleRecords(7);
  const std::vector<std::string> second = {"x", "", "yz"};
  auto a = EncodeRecords(first, Compression::kGzip);
  auto b = EncodeRecords(second, Compression::kGzip);
  ASSERT_TRUE(a.ok() && b.ok());
  std::vector<std::string> all = first;
  all.insert(all.end(), second.begin(), second.end());
  EXPECT_EQ(ReadBuffer(*a + *b, "cat.tfrecord.gz", Compression::kGzip), all);
  EXPECT_EQ(ReadStream(*a + *b, "cat.tfrecord.gz"), all);
}

TEST(RecordReaderTest, ExplicitCompressionOverridesDetection) {
  auto bytes = EncodeRecords({"abc"}, Compression::kZlib);
  ASSERT_TRUE(bytes.ok());
  ReaderOptions options = ReaderOptions::Defaults();
  options.compression_auto = false;
  options.compression = Compression::kNone;
  auto reader = RecordReader::FromBuffer(AsBuffer(*bytes), "x", options);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->compression(), Compression::kNone);
  auto read = ReadAll(**reader);
  EXPECT_FALSE(read.ok());  // zlib bytes are not TFRecord framing
  EXPECT_EQ(read.status().code(), StatusCode::kDataError);
}

TEST(RecordWriterTest, OptionsValidate) {
  WriterOptions options = WriterOptions::Defaults();
  EXPECT_TRUE(options.Validate().ok());
  options.level = 10;
  EXPECT_EQ(options.Validate().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(RecordWriter::Make(std::make_unique<BufferOutputStream>(), options).ok());
}

TEST(RecordWriterTest, WriteAfterCloseFails) {
  auto writer = RecordWriter::Make(std::make_unique<BufferOutputStream>(), WriterOptions::Defaults());
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->Write("a").ok());
  EXPECT_EQ((*writer)->bytes_written(), kFramingOverhead + 1);
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_TRUE((*writer)->Close().ok());
  EXPECT_FALSE((*writer)->Write("b").ok());
}

}  // namespace
}  // namespace recflow::tfrecord
