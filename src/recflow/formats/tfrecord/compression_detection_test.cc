// Compression detection: TFRecord header first, then GZIP / ZLIB magic, then the suffix.
#include "recflow/formats/tfrecord/compression_detection.h"

#include <gtest/gtest.h>

#include "recflow/formats/tfrecord/test_util_internal.h"

namespace recflow::tfrecord {
namespace {

using testing::EncodeRecords;
using testing::ReadAll;

std::span<const uint8_t> Head(const std::string& bytes) {
  return {reinterpret_cast<const uint8_t*>(bytes.data()), std::min<size_t>(bytes.size(), kDetectionHeadSize)};
}

TEST(CompressionDetectionTest, MagicBytesWinOverTheSuffix) {
  auto none = EncodeRecords({"abc"}, Compression::kNone);
  auto gzip = EncodeRecords({"abc"}, Compression::kGzip);
  auto zlib = EncodeRecords({"abc"}, Compression::kZlib);
  ASSERT_TRUE(none.ok() && gzip.ok() && zlib.ok());
  for (const char* name : {"a.tfrecord", "a.tfrecord.gz", "a.zz", "a.zlib"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(DetectCompression(Head(*none), name), Compression::kNone);
    EXPECT_EQ(DetectCompression(Head(*gzip), name), Compression::kGzip);
    EXPECT_EQ(DetectCompression(Head(*zlib), name), Compression::kZlib);
  }
}

TEST(CompressionDetectionTest, SuffixDecidesWhenTheBytesSayNothing) {
  const std::string junk = "not a header";
  EXPECT_EQ(DetectCompression(Head(junk), "x.gz"), Compression::kGzip);
  EXPECT_EQ(DetectCompression(Head(junk), "x.zz"), Compression::kZlib);
  EXPECT_EQ(DetectCompression(Head(junk), "x.zlib"), Compression::kZlib);
  EXPECT_EQ(DetectCompression(Head(junk), "x.tfrecord"), Compression::kNone);
  EXPECT_EQ(DetectCompression({}, "empty.gz"), Compression::kNone);
}

TEST(CompressionDetectionTest, GzNamedUncompressedFileStillReads) {
  const std::vector<std::string> records = testing::SampleRecords(20);
  auto bytes = EncodeRecords(records);
  ASSERT_TRUE(bytes.ok());
  auto reader = RecordReader::FromBuffer(Buffer::FromString(*bytes), "mislabelled.tfrecord.gz", ReaderOptions::Defaults());
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->compression(), Compression::kNone);
  auto read = ReadAll(**reader);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(*read, records);
}

TEST(CompressionDetectionTest, RecordLengthThatLooksLikeAZlibHeader) {
  // 40056 = 0x9c78: the file starts 78 9c, a valid ZLIB header (default compression).
  const std::vector<std::string> records = {std::string(40056, 'z'), "tail"};
  auto bytes = EncodeRecords(records);
  ASSERT_TRUE(bytes.ok());
  ASSERT_TRUE(LooksLikeZlib(Head(*bytes)));
  EXPECT_EQ(DetectCompression(Head(*bytes), "x.zz"), Compression::kNone);
  for (bool stream : {false, true}) {
    auto buffer = Buffer::FromString(*bytes);
    auto reader = stream ? RecordReader::FromStream(std::make_unique<BufferInputStream>(buffer, "x"), ReaderOptions::Defaults())
                         : RecordReader::FromBuffer(buffer, "x", ReaderOptions::Defaults());
    ASSERT_TRUE(reader.ok());
    EXPECT_EQ((*reader)->compression(), Compression::kNone);
    auto read = ReadAll(**reader);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    EXPECT_EQ(*read, records);
  }
}

}  // namespace
}  // namespace recflow::tfrecord
