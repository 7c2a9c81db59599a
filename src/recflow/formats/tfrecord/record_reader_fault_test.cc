// Each TFRecord fault is a DataError naming the input, the record index and the byte offset.
#include <gtest/gtest.h>

#include "recflow/formats/tfrecord/test_util_internal.h"

namespace recflow::tfrecord {
namespace {

using testing::EncodeRecords;
using testing::ReadAll;
using testing::RecordOffsets;
using testing::SampleRecords;

struct Expected {
  int64_t record;
  int64_t offset;
  std::string kind;
};

// Reads `bytes` to the first error, in memory and as a stream, and checks where it points.
void ExpectFault(const std::string& bytes, const Expected& expected, ReaderOptions options = ReaderOptions::Defaults()) {
  for (bool stream : {false, true}) {
    SCOPED_TRACE(stream ? "stream" : "buffer");
    auto buffer = Buffer::FromString(bytes);
    auto reader = stream ? RecordReader::FromStream(std::make_unique<BufferInputStream>(buffer, "bad.tfrecord"), options)
                         : RecordReader::FromBuffer(buffer, "bad.tfrecord", options);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto read = ReadAll(**reader);
    ASSERT_FALSE(read.ok());
    const Status& st = read.status();
    EXPECT_EQ(st.code(), StatusCode::kDataError) << st.ToString();
    EXPECT_EQ(st.context().file, "bad.tfrecord");
    EXPECT_EQ(st.context().record, expected.record) << st.ToString();
    EXPECT_EQ(st.context().offset, expected.offset) << st.ToString();
    EXPECT_NE(st.message().find(expected.kind), std::string::npos) << st.ToString();
    EXPECT_EQ((*reader)->record_index(), expected.record - 1);
    // The failure is sticky.
    std::string_view record;
    auto again = (*reader)->Next(&record);
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.status().ToString(), st.ToString());
  }
}

class FaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto bytes = EncodeRecords(records_);
    ASSERT_TRUE(bytes.ok());
    bytes_ = *bytes;
  }
  const std::vector<std::string> records_ = SampleRecords(6);
  const std::vector<int64_t> offsets_ = RecordOffsets(records_);
  std::string bytes_;
};

TEST_F(FaultTest, TruncatedHeader) {
  std::string bytes = bytes_ + bytes_.substr(0, 5);
  ExpectFault(bytes, {6, offsets_[6], "truncated header"});
}

TEST_F(FaultTest, TruncatedData) {
  // Cut inside record 4's data.
  std::string bytes = bytes_.substr(0, static_cast<size_t>(offsets_[4] + kHeaderSize + 3));
  ExpectFault(bytes, {4, offsets_[4], "truncated data"});
}

TEST_F(FaultTest, MissingDataCrc) {
  std::string bytes = bytes_.substr(0, bytes_.size() - 2);
  ExpectFault(bytes, {5, offsets_[5], "truncated data"});
}

TEST_F(FaultTest, BadLengthCrc) {
  std::string bytes = bytes_;
  bytes[static_cast<size_t>(offsets_[2])] ^= 0x01;
  ExpectFault(bytes, {2, offsets_[2], "bad length CRC"});
  bytes = bytes_;
  bytes[static_cast<size_t>(offsets_[2] + kLengthSize + 1)] ^= 0x40;  // the stored CRC itself
  ExpectFault(bytes, {2, offsets_[2], "bad length CRC"});
}

TEST_F(FaultTest, BadDataCrc) {
  std::string bytes = bytes_;
  bytes[static_cast<size_t>(offsets_[3] + kHeaderSize)] ^= 0x10;
  ExpectFault(bytes, {3, offsets_[3], "bad data CRC"});
  bytes = bytes_;
  bytes[static_cast<size_t>(offsets_[4] - 1)] ^= 0x10;  // record 3's stored data CRC
  ExpectFault(bytes, {3, offsets_[3], "bad data CRC"});
}

TEST_F(FaultTest, NoDataCrcCheckWhenNotVerifying) {
  std::string bytes = bytes_;
  bytes[static_cast<size_t>(offsets_[3] + kHeaderSize)] ^= 0x10;
  ReaderOptions options = ReaderOptions::Defaults();
  options.verify_crc = false;
  auto reader = RecordReader::FromBuffer(Buffer::FromString(bytes), "x", options);
  ASSERT_TRUE(reader.ok());
  auto read = ReadAll(**reader);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->size(), records_.size());
}

TEST_F(FaultTest, LengthLargerThanTheRestOfTheFile) {
  uint8_t header[kHeaderSize];
  EncodeHeader(uint64_t{1} << 30, header);  // valid CRC, a gigabyte announced, 20 bytes present
  std::string bytes = bytes_ + std::string(reinterpret_cast<char*>(header), kHeaderSize) + std::string(20, 'x');
  ExpectFault(bytes, {6, offsets_[6], "larger than the rest of the input"});
  // Not even unchecked-length verification skips this.
  ReaderOptions options = ReaderOptions::Defaults();
  options.verify_crc = false;
  ExpectFault(bytes, {6, offsets_[6], "larger than the rest of the input"}, options);
}

TEST_F(FaultTest, LengthBeyondTheMaximum) {
  uint8_t header[kHeaderSize];
  EncodeHeader(uint64_t{1} << 62, header);
  std::string bytes = bytes_ + std::string(reinterpret_cast<char*>(header), kHeaderSize) + std::string(20, 'x');
  ExpectFault(bytes, {6, offsets_[6], "larger than the maximum"});
}

TEST_F(FaultTest, OffsetsAreInTheDecompressedStream) {
  std::string bytes = bytes_;
  bytes[static_cast<size_t>(offsets_[3] + kHeaderSize)] ^= 0x10;
  for (Compression c : {Compression::kGzip, Compression::kZlib}) {
    // Re-compress the damaged framing: RecordWriter cannot write a bad CRC, so compress raw bytes.
    auto compressed = CompressBuffer(c, std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
    ASSERT_TRUE(compressed.ok()) << compressed.status().ToString();
    ExpectFault(std::string((*compressed)->view()), {3, offsets_[3], "bad data CRC"});
  }
}

TEST(CorruptCompressionTest, RecordsBeforeTheDamageAreReturned) {
  const std::vector<std::string> records = SampleRecords(300);
  auto bytes = EncodeRecords(records, Compression::kGzip);
  ASSERT_TRUE(bytes.ok());
  std::string cut = bytes->substr(0, bytes->size() / 2);  // a truncated gzip file
  auto reader = RecordReader::FromBuffer(Buffer::FromString(cut), "cut.gz", ReaderOptions::Defaults());
  ASSERT_TRUE(reader.ok());
  std::string_view record;
  int64_t good = 0;
  Result<bool> more = true;
  while ((more = (*reader)->Next(&record)).ok() && *more) ++good;
  ASSERT_FALSE(more.ok());
  EXPECT_GT(good, 0);
  EXPECT_EQ(more.status().context().file, "cut.gz");
  EXPECT_EQ(more.status().context().record, good);
}

TEST_F(FaultTest, ARecordOverTheCapIsRefusedAndNeverSkipped) {
  ReaderOptions options = ReaderOptions::Defaults();
  options.max_record_bytes = static_cast<int64_t>(records_[2].size()) - 1;
  ExpectFault(bytes_, {2, offsets_[2], "is larger than the reader's limit of"}, options);
  options.skip_corrupt = true;  // a record over the cap is not corruption
  ExpectFault(bytes_, {2, offsets_[2], "--max-record-bytes raises it"}, options);
  options.max_record_bytes = 0;
  EXPECT_EQ(options.Validate().code(), StatusCode::kInvalidArgument);
}

TEST_F(FaultTest, AGzipBombIsRefusedAtItsFirstHeader) {
  // 64 MiB of zeros: whole decompression would hold them all; the framing check stops at 12 bytes.
  const std::string zeros(size_t{1} << 20, '\0');
  auto member = CompressBuffer(Compression::kGzip, std::span(reinterpret_cast<const uint8_t*>(zeros.data()), zeros.size()));
  ASSERT_TRUE(member.ok());
  std::string bomb;
  for (int i = 0; i < 64; ++i) bomb += std::string((*member)->view());
  ExpectFault(bomb, {0, 0, "bad length CRC"});
}

TEST(CorruptCompressionTest, SkippingADamagedGzipStreamNamesTheFirstFault) {
  const std::vector<std::string> records = SampleRecords(300);
  auto bytes = EncodeRecords(records, Compression::kGzip);
  ASSERT_TRUE(bytes.ok());
  std::string damaged = *bytes;
  damaged[damaged.size() / 2] = static_cast<char>(damaged[damaged.size() / 2] ^ 0xff);
  ReaderOptions options = ReaderOptions::Defaults();
  options.skip_corrupt = true;
  auto reader = RecordReader::FromBuffer(Buffer::FromString(damaged), "damaged.gz", options);
  ASSERT_TRUE(reader.ok());
  std::string_view record;
  Result<bool> more = true;
  while ((more = (*reader)->Next(&record)).ok() && *more) {
  }
  ASSERT_FALSE(more.ok());
  const std::string message = more.status().ToString();
  EXPECT_NE(message.find("corrupt gzip data"), std::string::npos) << message;
  EXPECT_NE(message.find("(the first fault, where reading went wrong: damaged.gz: record "), std::string::npos)
      << message;
}

}  // namespace
}  // namespace recflow::tfrecord
