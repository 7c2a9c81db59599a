// The codec a RecordReader reads with when none is given: formats::Sniff's, for buffers and streams alike.
#include <gtest/gtest.h>

#include "recflow/formats/tfrecord/framing.h"
#include "recflow/formats/tfrecord/test_util_internal.h"

namespace recflow::tfrecord {
namespace {

using testing::EncodeRecords;
using testing::ReadAll;

/// A reader of `bytes` named `name` with the codec detected, from a buffer or a stream.
Result<std::unique_ptr<RecordReader>> Open(const std::string& bytes, const std::string& name, bool stream) {
  auto buffer = Buffer::FromString(bytes);
  if (stream) return RecordReader::FromStream(std::make_unique<BufferInputStream>(buffer, name), ReaderOptions::Defaults());
  return RecordReader::FromBuffer(buffer, name, ReaderOptions::Defaults());
}

TEST(RecordReaderCodecTest, MagicBytesWinOverTheSuffix) {
  auto none = EncodeRecords({"abc"}, Compression::kNone);
  auto gzip = EncodeRecords({"abc"}, Compression::kGzip);
  auto zlib = EncodeRecords({"abc"}, Compression::kZlib);
  ASSERT_TRUE(none.ok() && gzip.ok() && zlib.ok());
  for (bool stream : {false, true}) {
    for (const char* name : {"a.tfrecord", "a.tfrecord.gz", "a.zz", "a.zlib"}) {
      SCOPED_TRACE(name);
      EXPECT_EQ(Open(*none, name, stream).ValueOrDie()->compression(), Compression::kNone);
      EXPECT_EQ(Open(*gzip, name, stream).ValueOrDie()->compression(), Compression::kGzip);
      EXPECT_EQ(Open(*zlib, name, stream).ValueOrDie()->compression(), Compression::kZlib);
      auto read = ReadAll(*Open(*zlib, name, stream).ValueOrDie());
      ASSERT_TRUE(read.ok()) << read.status().ToString();
      EXPECT_EQ(*read, std::vector<std::string>{"abc"});
    }
  }
}

TEST(RecordReaderCodecTest, GzNamedUncompressedFileStillReads) {
  const std::vector<std::string> records = testing::SampleRecords(20);
  auto bytes = EncodeRecords(records);
  ASSERT_TRUE(bytes.ok());
  for (bool stream : {false, true}) {
    auto reader = Open(*bytes, "mislabelled.tfrecord.gz", stream);
    ASSERT_TRUE(reader.ok());
    EXPECT_EQ((*reader)->compression(), Compression::kNone);
    auto read = ReadAll(**reader);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    EXPECT_EQ(*read, records);
  }
}

TEST(RecordReaderCodecTest, RecordLengthThatLooksLikeAZlibHeader) {
  // 40056 = 0x9c78: the file starts 78 9c, a valid ZLIB header (default compression).
  const std::vector<std::string> records = {std::string(40056, 'z'), "tail"};
  auto bytes = EncodeRecords(records);
  ASSERT_TRUE(bytes.ok());
  ASSERT_TRUE(LooksLikeZlib({reinterpret_cast<const uint8_t*>(bytes->data()), 2}));
  for (bool stream : {false, true}) {
    auto reader = Open(*bytes, "x.zz", stream);
    ASSERT_TRUE(reader.ok());
    EXPECT_EQ((*reader)->compression(), Compression::kNone);
    auto read = ReadAll(**reader);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    EXPECT_EQ(*read, records);
  }
}

TEST(RecordReaderCodecTest, ADamagedTfrecordStartingLikeZlibFailsOnItsFraming) {
  // Two bytes that make a valid zlib header, then nothing that inflates: the length CRC is the
  // fault to name (the sniffer wants zlib heads to inflate; a second detector taking two bytes
  // for zlib said "corrupt zlib data").
  std::string bytes = EncodeRecords({std::string(100, 'r')}).ValueOrDie();
  bytes[0] = '\x78';
  bytes[1] = '\x9c';
  for (bool stream : {false, true}) {
    for (const char* name : {"damaged.tfrecord", "damaged.zz"}) {
      SCOPED_TRACE(name);
      auto reader = Open(bytes, name, stream);
      ASSERT_TRUE(reader.ok());
      EXPECT_EQ((*reader)->compression(), Compression::kNone);
      auto read = ReadAll(**reader);
      ASSERT_FALSE(read.ok());
      EXPECT_NE(read.status().message().find("length CRC"), std::string::npos) << read.status().ToString();
      EXPECT_EQ(read.status().message().find("zlib"), std::string::npos) << read.status().ToString();
    }
  }
}

TEST(RecordReaderCodecTest, TheSuffixAloneDoesNotMakeACodec) {
  // Bytes that are neither a TFRecord header nor a gzip/zlib head are read as they are: the
  // fault is their framing at offset 0, not a decompressor's.
  for (bool stream : {false, true}) {
    for (const char* name : {"x.gz", "x.zz", "x.zlib", "x.tfrecord"}) {
      auto reader = Open("not a header at all", name, stream);
      ASSERT_TRUE(reader.ok()) << name;
      EXPECT_EQ((*reader)->compression(), Compression::kNone) << name;
    }
    EXPECT_EQ(Open("", "empty.gz", stream).ValueOrDie()->compression(), Compression::kNone);
  }
}

TEST(RecordReaderCodecTest, ACodecRecflowDoesNotReadIsNamed) {
  const std::string zstd("\x28\xb5\x2f\xfd\x04\x58\x31\x00\x00hello", 14);
  for (bool stream : {false, true}) {
    auto reader = Open(zstd, "x.tfrecord.zst", stream);
    ASSERT_FALSE(reader.ok());
    EXPECT_EQ(reader.status().code(), StatusCode::kDataError);
    EXPECT_NE(reader.status().ToString().find("zstd-compressed input"), std::string::npos) << reader.status().ToString();
  }
}

}  // namespace
}  // namespace recflow::tfrecord
