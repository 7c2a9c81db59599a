// Tests for hostile Avro inputs: bad lengths, counts, indexes, framing, codecs and schemas are clean errors.
#include <gtest/gtest.h>
#include <snappy.h>

#include <string>
#include <vector>

#include "recflow/columnar/array.h"
#include "recflow/core/compression.h"
#include "recflow/formats/avro/avro_reader.h"
#include "recflow/formats/avro/test_container_internal.h"

namespace recflow::avro {
namespace {

using testing::Block;
using testing::Bytes;
using testing::Header;
using testing::Long;

constexpr char kStringSchema[] = R"({"type": "record", "name": "R", "fields": [{"name": "s", "type": "string"}]})";

// Reads every batch of `bytes`; the Status of the first failure, or OK with the row count.
Result<int64_t> ReadRows(const std::string& bytes, ReadOptions options = ReadOptions::Defaults()) {
  ASSIGN_OR_RETURN(auto reader, AvroReader::FromBuffer(Buffer::FromString(bytes), "hostile.avro", options));
  int64_t rows = 0;
  while (true) {
    ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch) return rows;
    RETURN_NOT_OK(batch->ValidateFull());
    rows += batch->num_rows();
  }
}

std::string Schema1(const std::string& type) {
  return R"({"type": "record", "name": "R", "fields": [{"name": "f", "type": )" + type + "}]}";
}

// Expects a DataError from reading `bytes` whose message contains `needle`.
void ExpectDataError(const std::string& bytes, const std::string& needle, const std::string& field = "") {
  auto rows = ReadRows(bytes);
  ASSERT_FALSE(rows.ok()) << "read " << *rows << " rows";
  EXPECT_EQ(rows.status().code(), StatusCode::kDataError) << rows.status().ToString();
  EXPECT_EQ(rows.status().context().file, "hostile.avro");
  EXPECT_GE(rows.status().context().offset, 0) << rows.status().ToString();
  EXPECT_NE(rows.status().message().find(needle), std::string::npos) << rows.status().ToString();
  if (!field.empty()) {
    EXPECT_EQ(rows.status().context().field, field);
    EXPECT_EQ(rows.status().context().record, 0);
  }
}

TEST(AvroHostileTest, StringLengths) {
  const std::string header = Header(kStringSchema);
  ASSERT_EQ(*ReadRows(header + Block(1, Bytes("ok"))), 1);
  ExpectDataError(header + Block(1, Long(-5)), "negative length", "s");
  ExpectDataError(header + Block(1, Long(int64_t{1} << 60)), "exceeds", "s");
  ExpectDataError(header + Block(1, Long(INT64_MIN)), "negative length", "s");
  ExpectDataError(header + Block(1, Bytes("bad \xff")), "UTF-8", "s");
  ExpectDataError(header + Block(1, Bytes("\xed\xa0\x80")), "UTF-8", "s");  // a surrogate
}

TEST(AvroHostileTest, VarintsAndPrimitives) {
  ExpectDataError(Header(Schema1(R"("long")")) + Block(1, std::string(11, '\xff')), "varint", "f");
  ExpectDataError(Header(Schema1(R"("long")")) + Block(1, std::string(9, '\xff') + "\x02"), "varint", "f");
  ExpectDataError(Header(Schema1(R"("int")")) + Block(1, Long(int64_t{1} << 40)), "32 bits", "f");
  ExpectDataError(Header(Schema1(R"("boolean")")) + Block(1, "\x02"), "neither 0 nor 1", "f");
  ExpectDataError(Header(Schema1(R"(["null", "double"])")) + Block(1, Long(1) + "1234"), "truncated", "f");
  ExpectDataError(Header(Schema1(R"({"type": "fixed", "name": "F", "size": 1000000})")) + Block(1, "xx"),
                  "claims 1 records", "");
}

TEST(AvroHostileTest, ArrayAndMapCounts) {
  const std::string longs = Header(Schema1(R"({"type": "array", "items": "long"})"));
  ASSERT_EQ(*ReadRows(longs + Block(1, Long(2) + Long(7) + Long(8) + Long(-1) + Long(1) + Long(9) + Long(0))), 1);
  ExpectDataError(longs + Block(1, Long(int64_t{1} << 40) + Long(1)), "item count", "f");
  ExpectDataError(longs + Block(1, Long(-3) + Long(1000) + "abc"), "byte size", "f");
  ExpectDataError(longs + Block(1, Long(INT64_MIN)), "item count", "f");
  const std::string maps = Header(Schema1(R"({"type": "map", "values": "string"})"));
  ExpectDataError(maps + Block(1, Long(int64_t{1} << 50)), "item count", "f");
  ExpectDataError(maps + Block(1, Long(1) + Bytes("k\xc0") + Bytes("v") + Long(0)), "UTF-8", "f");
  // Items that take no bytes: a bounded number is fine, a huge one is refused.
  const std::string nulls = Header(Schema1(R"({"type": "array", "items": "null"})"));
  ASSERT_EQ(*ReadRows(nulls + Block(1, Long(100) + Long(0))), 1);
  ExpectDataError(nulls + Block(1, Long(int64_t{1} << 40) + Long(0)), "item count", "f");
}

TEST(AvroHostileTest, UnionAndEnumIndexes) {
  const std::string unions = Header(Schema1(R"(["null", "long"])"));
  ASSERT_EQ(*ReadRows(unions + Block(2, Long(0) + Long(1) + Long(5))), 2);
  ExpectDataError(unions + Block(1, Long(2) + Long(5)), "union branch index 2", "f");
  ExpectDataError(unions + Block(1, Long(-1)), "union branch index -1", "f");
  const std::string enums = Header(Schema1(R"({"type": "enum", "name": "E", "symbols": ["A", "B"]})"));
  ExpectDataError(enums + Block(1, Long(2)), "enum index 2", "f");
  ExpectDataError(enums + Block(1, Long(-1)), "enum index -1", "f");
}

TEST(AvroHostileTest, BlockFraming) {
  const std::string header = Header(kStringSchema);
  const std::string good = Block(1, Bytes("ok"));
  ExpectDataError(header + Block(int64_t{1} << 60, Bytes("ok")), "claims");
  ExpectDataError(header + Block(-1, Bytes("ok")), "negative block record count");
  ExpectDataError(header + Long(1) + Long(int64_t{1} << 40) + "tiny", "block size");
  ExpectDataError(header + Long(1) + Long(-4) + "tiny", "block size");
  ExpectDataError(header + good + Long(1) + Long(100) + "only ten b", "truncated");
  ExpectDataError(header + good + Block(1, Bytes("ok"), "fedcba9876543210"), "sync marker");
  ExpectDataError(header + Block(1, Bytes("ok") + "extra"), "bytes left in the block");
  ExpectDataError(header + Block(1, Bytes("ok")).substr(0, 9), "truncated");
  ASSERT_EQ(*ReadRows(header + good + Block(0, "") + good), 2);
}

TEST(AvroHostileTest, Headers) {
  ExpectDataError("Obj\x02" + Header(kStringSchema).substr(4), "magic");
  ExpectDataError("", "magic");
  ExpectDataError(Header(kStringSchema, "lz4") + Block(1, Bytes("ok")), "'lz4'");
  ExpectDataError(Header("{not json"), "not JSON");
  ExpectDataError(Header(R"({"type": "record", "name": "R", "fields": [{"name": "f", "type": "Nope"}]})"), "unknown type");
  ExpectDataError(std::string("Obj\x01", 4) + Long(1) + Bytes("avro.schema") + Long(int64_t{1} << 50), "bad length");
  ExpectDataError(std::string("Obj\x01", 4) + Long(1) + Bytes("avro.schema") + Long(1000) + "short", "truncated");
  ExpectDataError(std::string("Obj\x01", 4) + Long(0) + testing::kTestSync, "no avro.schema");
}

TEST(AvroHostileTest, HostileSchemasAreTypeErrors) {
  std::string deep = R"("long")";
  for (int i = 0; i < 100; ++i) deep = R"({"type": "array", "items": )" + deep + "}";
  auto rows = ReadRows(Header(Schema1(deep)));
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), StatusCode::kTypeError) << rows.status().ToString();
  EXPECT_EQ(rows.status().context().file, "hostile.avro");
  rows = ReadRows(Header(R"({"type": "record", "name": "Node", "fields": [
      {"name": "next", "type": ["null", "Node"]}]})"));
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), StatusCode::kTypeError) << rows.status().ToString();
  EXPECT_NE(rows.status().message().find("recursive"), std::string::npos);
  rows = ReadRows(Header(Schema1(R"(["int", "string"])")));
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), StatusCode::kTypeError);
  EXPECT_EQ(rows.status().context().field, "f");
}

// Raw deflate of `data` (a ZLIB stream without its 2-byte header and 4-byte trailer).
std::string RawDeflate(const std::string& data) {
  auto zlib = CompressBuffer(Compression::kZlib, std::span(reinterpret_cast<const uint8_t*>(data.data()), data.size()));
  EXPECT_TRUE(zlib.ok());
  return std::string((*zlib)->view().substr(2, static_cast<size_t>((*zlib)->size()) - 6));
}

TEST(AvroHostileTest, DecompressionIsCapped) {
  const std::string nulls = Header(Schema1(R"({"type": "array", "items": "null"})"), "deflate");
  std::string records;
  for (int i = 0; i < 100000; ++i) records += Long(0);  // 100000 empty arrays
  ASSERT_EQ(*ReadRows(nulls + Block(100000, RawDeflate(records))), 100000);
  auto options = ReadOptions::Defaults();
  options.max_block_bytes = 50000;
  auto rows = ReadRows(nulls + Block(100000, RawDeflate(records)), options);
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), StatusCode::kDataError);
  EXPECT_NE(rows.status().message().find("limit of 50000"), std::string::npos) << rows.status().ToString();
  ExpectDataError(Header(kStringSchema, "deflate") + Block(1, "\xff\xff\xff garbage"), "deflate");
}

TEST(AvroHostileTest, SnappyCrcIsChecked) {
  const std::string data = Bytes("hello snappy");
  std::string compressed;
  snappy::Compress(data.data(), data.size(), &compressed);
  const std::string header = Header(kStringSchema, "snappy");
  // CRC-32 of the uncompressed bytes, big-endian.
  uint32_t crc = 0xffffffffu;
  for (unsigned char c : data) {
    crc ^= c;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
  }
  crc ^= 0xffffffffu;
  const std::string trailer = {static_cast<char>(crc >> 24), static_cast<char>(crc >> 16), static_cast<char>(crc >> 8),
                               static_cast<char>(crc)};
  ASSERT_EQ(*ReadRows(header + Block(1, compressed + trailer)), 1);
  ExpectDataError(header + Block(1, compressed + std::string(4, '\0')), "CRC-32");
  ExpectDataError(header + Block(1, std::string("\x0a\xf0", 2) + trailer), "snappy");
  ExpectDataError(header + Block(1, "\xff\xff\xff\xff\x0f" + trailer), "limit");
}

TEST(AvroHostileTest, SkipModeLeavesOutBadBlocksAndResyncs) {
  const std::string header = Header(kStringSchema);
  const std::string bytes = header + Block(1, Bytes("a")) + Block(2, Bytes("b") + Bytes("\xff")) +
                            Block(1, Bytes("c")) + Long(5) + Long(1000) + "garbage" + testing::kTestSync +
                            Block(2, Bytes("d") + Bytes("e"));
  auto failing = ReadRows(bytes);
  ASSERT_FALSE(failing.ok());
  EXPECT_EQ(failing.status().context().record, 2);
  auto options = ReadOptions::Defaults();
  options.bad_blocks = BadBlocksMode::kSkip;
  options.batch_rows = 2;
  std::vector<Status> skipped;
  options.on_skipped_block = [&](const SkippedRecord& r) { skipped.push_back(r.error); };
  auto reader = AvroReader::FromBuffer(Buffer::FromString(bytes), "hostile.avro", options);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  std::string values;
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (!*batch) break;
    BinaryArray column((*batch)->column_data(0));
    for (int64_t r = 0; r < (*batch)->num_rows(); ++r) values += column.GetView(r);
  }
  EXPECT_EQ(values, "acde");
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_NE(skipped[0].message().find("UTF-8"), std::string::npos) << skipped[0].ToString();
  EXPECT_EQ(skipped[0].context().file, "hostile.avro");
  EXPECT_NE(skipped[1].message().find("truncated"), std::string::npos) << skipped[1].ToString();
}

}  // namespace
}  // namespace recflow::avro
