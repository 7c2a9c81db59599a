// Tests for AvroReader errors on files of the Avro C library: missing, empty, truncated, corrupted, invalid strings.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "recflow/formats/avro/avro_reader.h"
#include "recflow/formats/avro/test_util_internal.h"
#include "recflow/testing/testdata.h"

namespace recflow::avro {
namespace {

using testing::ReadAll;
using testing::TestWriter;

constexpr char kSchema[] = R"({"type": "record", "name": "S", "fields": [
  {"name": "id", "type": "long"}, {"name": "s", "type": "string"}]})";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// 300 records in blocks of about 1 KiB.
void WriteValid(const std::string& path) {
  TestWriter w(path, kSchema, "null", 1024);
  ASSERT_TRUE(w.ok()) << avro_strerror();
  for (int k = 0; k < 300; ++k) {
    w.record();
    avro_value_t v = w.field("id");
    AVRO_OK(avro_value_set_long(&v, k));
    v = w.field("s");
    AVRO_OK(avro_value_set_string(&v, "some text to fill the blocks"));
    AVRO_OK(w.Append());
  }
}

TEST(AvroErrorsTest, MissingFileIsNotFound) {
  auto reader = AvroReader::Open("/nonexistent/x.avro", ReadOptions::Defaults());
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(reader.status().context().file, "/nonexistent/x.avro");
}

TEST(AvroErrorsTest, EmptyAndNonAvroInputAreDataErrors) {
  auto empty = AvroReader::FromBuffer(Buffer::FromString(""), "empty.avro", ReadOptions::Defaults());
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), StatusCode::kDataError);
  EXPECT_EQ(empty.status().context().file, "empty.avro");
  auto csv = AvroReader::FromBuffer(Buffer::FromString("a,b\n1,2\n"), "x.csv", ReadOptions::Defaults());
  ASSERT_FALSE(csv.ok());
  EXPECT_EQ(csv.status().code(), StatusCode::kDataError);
  EXPECT_EQ(csv.status().context().file, "x.csv");
  EXPECT_NE(csv.status().message().find("magic"), std::string::npos) << csv.status().ToString();
}

TEST(AvroErrorsTest, UnknownCodecIsDataErrorNamingIt) {
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("bz.avro");
  ASSERT_NO_FATAL_FAILURE(WriteValid(path));
  std::string bytes = ReadFile(path);
  const size_t at = bytes.find(std::string("\x08null", 5));  // the avro.codec value
  ASSERT_NE(at, std::string::npos);
  bytes.replace(at, 5, std::string("\x0a" "bzip2", 6));
  WriteFile(path, bytes);
  auto reader = AvroReader::Open(path, ReadOptions::Defaults());
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kDataError);
  EXPECT_EQ(reader.status().context().file, path);
  EXPECT_GT(reader.status().context().offset, 0);
  EXPECT_NE(reader.status().message().find("'bzip2'"), std::string::npos) << reader.status().ToString();
}

TEST(AvroErrorsTest, TruncatedHeaderIsDataError) {
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("t.avro");
  ASSERT_NO_FATAL_FAILURE(WriteValid(path));
  WriteFile(path, ReadFile(path).substr(0, 20));
  auto reader = AvroReader::Open(path, ReadOptions::Defaults());
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kDataError);
  EXPECT_EQ(reader.status().context().file, path);
}

TEST(AvroErrorsTest, TruncatedBlockIsDataErrorWithFileAndOffset) {
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("t.avro");
  ASSERT_NO_FATAL_FAILURE(WriteValid(path));
  const std::string bytes = ReadFile(path);
  WriteFile(path, bytes.substr(0, bytes.size() - 100));  // inside the last block
  auto batches = ReadAll(path, 10);
  ASSERT_FALSE(batches.ok());
  EXPECT_EQ(batches.status().code(), StatusCode::kDataError);
  EXPECT_EQ(batches.status().context().file, path);
  EXPECT_GT(batches.status().context().offset, 0);
  EXPECT_NE(batches.status().message().find("truncated"), std::string::npos) << batches.status().ToString();
}

// Offsets of the header's sync marker and of the marker after the first block.
void FindSyncMarkers(const std::string& bytes, size_t* header_sync, size_t* first_block_sync) {
  const std::string sync = bytes.substr(bytes.size() - 16);
  *header_sync = bytes.find(sync);
  *first_block_sync = bytes.find(sync, *header_sync + 16);
  ASSERT_NE(*first_block_sync, std::string::npos);
  ASSERT_LT(*first_block_sync, bytes.size() - 16);
}

TEST(AvroErrorsTest, CorruptSyncMarkerIsDataErrorAtItsOffset) {
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("s.avro");
  ASSERT_NO_FATAL_FAILURE(WriteValid(path));
  std::string bytes = ReadFile(path);
  size_t header_sync = 0, block_sync = 0;
  ASSERT_NO_FATAL_FAILURE(FindSyncMarkers(bytes, &header_sync, &block_sync));
  bytes[block_sync] = static_cast<char>(bytes[block_sync] ^ 0x55);
  WriteFile(path, bytes);
  auto batches = ReadAll(path);
  ASSERT_FALSE(batches.ok());
  EXPECT_EQ(batches.status().code(), StatusCode::kDataError);
  EXPECT_EQ(batches.status().context().file, path);
  EXPECT_EQ(batches.status().context().offset, static_cast<int64_t>(block_sync));
  EXPECT_NE(batches.status().message().find("sync"), std::string::npos) << batches.status().ToString();
}

TEST(AvroErrorsTest, CorruptBlockDataIsDataErrorWithRecordIndex) {
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("d.avro");
  ASSERT_NO_FATAL_FAILURE(WriteValid(path));
  std::string bytes = ReadFile(path);
  size_t header_sync = 0, block_sync = 0;
  ASSERT_NO_FATAL_FAILURE(FindSyncMarkers(bytes, &header_sync, &block_sync));
  // The second block starts after the first one's sync marker: its record count and size
  // (varints), then the first record. An 11-byte varint there is malformed for any decoder.
  size_t at = block_sync + 16;
  while (static_cast<uint8_t>(bytes[at]) & 0x80) ++at;  // count
  ++at;
  while (static_cast<uint8_t>(bytes[at]) & 0x80) ++at;  // size
  ++at;
  for (int i = 0; i < 11; ++i) bytes[at + i] = static_cast<char>(0xff);
  WriteFile(path, bytes);
  auto batches = ReadAll(path, 10);
  ASSERT_FALSE(batches.ok());
  EXPECT_EQ(batches.status().code(), StatusCode::kDataError);
  EXPECT_EQ(batches.status().context().file, path);
  EXPECT_GT(batches.status().context().record, 0);  // the first block's records were fine
  EXPECT_LT(batches.status().context().record, 300);
  EXPECT_EQ(batches.status().context().offset, static_cast<int64_t>(at));  // the bad varint
  EXPECT_EQ(batches.status().context().field, "id");
}

TEST(AvroErrorsTest, InvalidUtf8StringIsDataErrorNamingFieldAndRecord) {
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("u.avro");
  {
    TestWriter w(path, kSchema);
    ASSERT_TRUE(w.ok()) << avro_strerror();
    for (int k = 0; k < 3; ++k) {
      w.record();
      avro_value_t v = w.field("id");
      AVRO_OK(avro_value_set_long(&v, k));
      v = w.field("s");
      const std::string text = k == 2 ? "bad \xff byte" : "fine";
      AVRO_OK(avro_value_set_string_len(&v, text.c_str(), text.size() + 1));
      AVRO_OK(w.Append());
    }
  }
  auto batches = ReadAll(path);
  ASSERT_FALSE(batches.ok());
  EXPECT_EQ(batches.status().code(), StatusCode::kDataError);
  EXPECT_EQ(batches.status().context().file, path);
  EXPECT_EQ(batches.status().context().record, 2);
  EXPECT_EQ(batches.status().context().field, "s");
}

}  // namespace
}  // namespace recflow::avro
