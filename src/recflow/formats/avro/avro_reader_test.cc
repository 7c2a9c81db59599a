// Tests for AvroReader: files written by the Avro C library (an independent writer) read back value by value.
#include "recflow/formats/avro/avro_reader.h"

#include <gtest/gtest.h>

#include <string>

#include "recflow/formats/avro/schema_mapping.h"
#include "recflow/formats/avro/test_util_internal.h"
#include "recflow/testing/testdata.h"

namespace recflow::avro {
namespace {

using testing::ReadAll;
using testing::Str;
using testing::TestWriter;

constexpr char kPrimitives[] = R"({"type": "record", "name": "P", "fields": [
  {"name": "n", "type": "null"}, {"name": "b", "type": "boolean"}, {"name": "i", "type": "int"},
  {"name": "l", "type": "long"}, {"name": "f", "type": "float"}, {"name": "d", "type": "double"},
  {"name": "by", "type": "bytes"}, {"name": "s", "type": "string"}]})";

void WritePrimitives(TestWriter& w, int k) {
  w.record();
  avro_value_t v = w.field("n");
  AVRO_OK(avro_value_set_null(&v));
  v = w.field("b");
  AVRO_OK(avro_value_set_boolean(&v, k % 2));
  v = w.field("i");
  AVRO_OK(avro_value_set_int(&v, k == 2 ? INT32_MIN : k * 1000 - 1));
  v = w.field("l");
  AVRO_OK(avro_value_set_long(&v, k == 2 ? INT64_MAX : -k * 12345678901LL));
  v = w.field("f");
  AVRO_OK(avro_value_set_float(&v, 0.5f * static_cast<float>(k)));
  v = w.field("d");
  AVRO_OK(avro_value_set_double(&v, -1.25 * k));
  v = w.field("by");
  const std::string bytes = std::string("\0\xff", 2).append(std::to_string(k));
  AVRO_OK(avro_value_set_bytes(&v, const_cast<char*>(bytes.data()), bytes.size()));
  v = w.field("s");
  const std::string text = k == 1 ? "" : std::string("h\xc3\xa9llo ").append(std::to_string(k));
  AVRO_OK(avro_value_set_string_len(&v, text.c_str(), text.size() + 1));
  AVRO_OK(w.Append());
}

TEST(AvroReaderTest, EveryPrimitiveType) {
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("p.avro");
  {
    TestWriter w(path, kPrimitives);
    ASSERT_TRUE(w.ok()) << avro_strerror();
    for (int k = 0; k < 3; ++k) ASSERT_NO_FATAL_FAILURE(WritePrimitives(w, k));
  }
  auto batches = ReadAll(path);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ASSERT_EQ(batches->size(), 1u);
  const auto& b = *(*batches)[0];
  ASSERT_EQ(b.num_rows(), 3);
  EXPECT_EQ(b.schema()->ToString(),
            "n: null\nb: bool not null\ni: int32 not null\nl: int64 not null\nf: float32 not null\n"
            "d: float64 not null\nby: binary not null\ns: utf8 not null");
  EXPECT_EQ(b.column_data(0)->null_count, 3);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(BooleanArray(b.column_data(1)).Value(k), k % 2 == 1);
    EXPECT_EQ(Int32Array(b.column_data(2)).Value(k), k == 2 ? INT32_MIN : k * 1000 - 1);
    EXPECT_EQ(Int64Array(b.column_data(3)).Value(k), k == 2 ? INT64_MAX : -k * 12345678901LL);
    EXPECT_EQ(Float32Array(b.column_data(4)).Value(k), 0.5f * static_cast<float>(k));
    EXPECT_EQ(Float64Array(b.column_data(5)).Value(k), -1.25 * k);
    EXPECT_EQ(Str(b.column_data(6), k), std::string("\0\xff", 2).append(std::to_string(k)));
    EXPECT_EQ(Str(b.column_data(7), k), k == 1 ? "" : std::string("h\xc3\xa9llo ").append(std::to_string(k)));
  }
  ASSERT_TRUE(b.schema()->metadata() != nullptr);
  EXPECT_NE(b.schema()->metadata()->Get(kAvroSchemaKey)->find("\"P\""), std::string::npos);
}

constexpr char kRich[] = R"({"type": "record", "name": "R", "fields": [
  {"name": "opt_s", "type": ["null", "string"]},
  {"name": "opt_l", "type": ["long", "null"]},
  {"name": "color", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN", "BLUE"]}},
  {"name": "id", "type": {"type": "fixed", "name": "Id", "size": 4}},
  {"name": "ints", "type": {"type": "array", "items": "int"}},
  {"name": "opt_strs", "type": {"type": "array", "items": ["null", "string"]}},
  {"name": "inner", "type": {"type": "record", "name": "Inner", "fields": [
      {"name": "x", "type": "double"}, {"name": "tags", "type": {"type": "array", "items": "string"}}]}},
  {"name": "opt_inner", "type": ["null", "Inner"]},
  {"name": "counts", "type": {"type": "map", "values": "long"}}]})";

void SetBranch(avro_value_t field, int branch_index, avro_value_t* branch) {
  ASSERT_EQ(avro_value_set_branch(&field, branch_index, branch), 0) << avro_strerror();
}

void WriteRich(TestWriter& w, int k) {
  w.record();
  avro_value_t branch, item, v;
  if (k % 3 == 0) {
    SetBranch(w.field("opt_s"), 0, &branch);
    AVRO_OK(avro_value_set_null(&branch));
  } else {
    SetBranch(w.field("opt_s"), 1, &branch);
    AVRO_OK(avro_value_set_string(&branch, (std::string("s").append(std::to_string(k))).c_str()));
  }
  if (k % 2 == 0) {
    SetBranch(w.field("opt_l"), 0, &branch);
    AVRO_OK(avro_value_set_long(&branch, k * 7));
  } else {
    SetBranch(w.field("opt_l"), 1, &branch);
    AVRO_OK(avro_value_set_null(&branch));
  }
  v = w.field("color");
  AVRO_OK(avro_value_set_enum(&v, k % 3));
  v = w.field("id");
  char id[4] = {static_cast<char>(k), 0, 'x', static_cast<char>(0xfe)};
  AVRO_OK(avro_value_set_fixed(&v, id, 4));
  v = w.field("ints");
  for (int i = 0; i < k; ++i) {
    AVRO_OK(avro_value_append(&v, &item, nullptr));
    AVRO_OK(avro_value_set_int(&item, i * k));
  }
  v = w.field("opt_strs");
  for (int i = 0; i < 2; ++i) {
    AVRO_OK(avro_value_append(&v, &item, nullptr));
    AVRO_OK(avro_value_set_branch(&item, i, &branch));
    if (i == 0) {
      AVRO_OK(avro_value_set_null(&branch));
    } else {
      AVRO_OK(avro_value_set_string(&branch, "t"));
    }
  }
  v = w.field("inner");
  avro_value_t x, tags;
  AVRO_OK(avro_value_get_by_name(&v, "x", &x, nullptr));
  AVRO_OK(avro_value_set_double(&x, k + 0.25));
  AVRO_OK(avro_value_get_by_name(&v, "tags", &tags, nullptr));
  AVRO_OK(avro_value_append(&tags, &item, nullptr));
  AVRO_OK(avro_value_set_string(&item, (std::string("tag").append(std::to_string(k))).c_str()));
  if (k == 1) {
    SetBranch(w.field("opt_inner"), 1, &branch);
    AVRO_OK(avro_value_get_by_name(&branch, "x", &x, nullptr));
    AVRO_OK(avro_value_set_double(&x, -3));
  } else {
    SetBranch(w.field("opt_inner"), 0, &branch);
    AVRO_OK(avro_value_set_null(&branch));
  }
  v = w.field("counts");
  for (int i = 0; i < k; ++i) {
    AVRO_OK(avro_value_add(&v, (std::string("k").append(std::to_string(i))).c_str(), &item, nullptr, nullptr));
    AVRO_OK(avro_value_set_long(&item, 100 + i));
  }
  AVRO_OK(w.Append());
}

TEST(AvroReaderTest, UnionsEnumFixedArraysRecordsMaps) {
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("rich.avro");
  {
    TestWriter w(path, kRich);
    ASSERT_TRUE(w.ok()) << avro_strerror();
    for (int k = 0; k < 4; ++k) ASSERT_NO_FATAL_FAILURE(WriteRich(w, k));
  }
  auto batches = ReadAll(path);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ASSERT_EQ(batches->size(), 1u);
  const auto& b = *(*batches)[0];
  ASSERT_EQ(b.num_rows(), 4);
  const char* colors[] = {"RED", "GREEN", "BLUE"};
  for (int k = 0; k < 4; ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(Str(b.column_data(0), k), k % 3 == 0 ? "<null>" : std::string("s").append(std::to_string(k)));
    Int64Array opt_l(b.column_data(1));
    EXPECT_EQ(opt_l.IsNull(k), k % 2 == 1);
    if (k % 2 == 0) {
      EXPECT_EQ(opt_l.Value(k), k * 7);
    }
    EXPECT_EQ(Str(b.column_data(2), k), colors[k % 3]);
    EXPECT_EQ(Str(b.column_data(3), k), std::string({static_cast<char>(k), 0, 'x', static_cast<char>(0xfe)}));
    ListArray ints(b.column_data(4));
    Int32Array int_values(ints.values());
    ASSERT_EQ(ints.value_length(k), k);
    for (int i = 0; i < k; ++i) EXPECT_EQ(int_values.Value(ints.value_offset(k) + i), i * k);
    ListArray strs(b.column_data(5));
    ASSERT_EQ(strs.value_length(k), 2);
    EXPECT_EQ(Str(strs.values(), strs.value_offset(k)), "<null>");
    EXPECT_EQ(Str(strs.values(), strs.value_offset(k) + 1), "t");
    StructArray inner(b.column_data(6));
    EXPECT_EQ(Float64Array(inner.field(0)).Value(k), k + 0.25);
    ListArray tags(inner.field(1));
    ASSERT_EQ(tags.value_length(k), 1);
    EXPECT_EQ(Str(tags.values(), tags.value_offset(k)), std::string("tag").append(std::to_string(k)));
    StructArray opt_inner(b.column_data(7));
    EXPECT_EQ(opt_inner.IsNull(k), k != 1);
    if (k == 1) {
      EXPECT_EQ(Float64Array(opt_inner.field(0)).Value(k), -3);
      EXPECT_EQ(ListArray(opt_inner.field(1)).value_length(k), 0);
    }
    ListArray counts(b.column_data(8));
    ASSERT_EQ(counts.value_length(k), k);
    StructArray entries(counts.values());
    for (int i = 0; i < k; ++i) {
      const int64_t at = counts.value_offset(k) + i;
      EXPECT_EQ(Str(entries.field(0), at), std::string("k").append(std::to_string(i)));
      EXPECT_EQ(Int64Array(entries.field(1)).Value(at), 100 + i);
    }
  }
}

// Many records in small container blocks, read in batches that straddle the blocks.
void CheckCodec(const char* codec) {
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("many.avro");
  constexpr int kRecords = 5000;
  {
    TestWriter w(path, kPrimitives, codec, 4096);
    ASSERT_TRUE(w.ok()) << codec << ": " << avro_strerror();
    for (int k = 0; k < kRecords; ++k) {
      w.record();
      avro_value_t v = w.field("l");
      AVRO_OK(avro_value_set_long(&v, k));
      v = w.field("s");
      AVRO_OK(avro_value_set_string(&v, std::to_string(k * 3).c_str()));
      v = w.field("by");
      AVRO_OK(avro_value_set_bytes(&v, const_cast<char*>("b"), 1));
      AVRO_OK(w.Append());
    }
  }
  auto batches = ReadAll(path, 777);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ASSERT_EQ(batches->size(), (kRecords + 776) / 777u);
  int64_t k = 0;
  for (const auto& b : *batches) {
    EXPECT_EQ(b->num_rows(), std::min<int64_t>(777, kRecords - k));
    for (int64_t r = 0; r < b->num_rows(); ++r, ++k) {
      ASSERT_EQ(Int64Array(b->column_data(3)).Value(r), k);
      ASSERT_EQ(Str(b->column_data(7), r), std::to_string(k * 3));
    }
  }
  EXPECT_EQ(k, kRecords);
}

TEST(AvroReaderTest, NullCodecSeveralBlocks) { CheckCodec("null"); }
TEST(AvroReaderTest, DeflateCodec) { CheckCodec("deflate"); }
TEST(AvroReaderTest, SnappyCodec) { CheckCodec("snappy"); }
TEST(AvroReaderTest, LzmaCodecOfTheCLibraryIsADataErrorNamingIt) {
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("lzma.avro");
  {
    TestWriter w(path, kPrimitives, "lzma");
    ASSERT_TRUE(w.ok()) << avro_strerror();
  }
  auto reader = AvroReader::Open(path, ReadOptions::Defaults());
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kDataError);
  EXPECT_NE(reader.status().message().find("'lzma'"), std::string::npos) << reader.status().ToString();
}

TEST(AvroReaderTest, BufferEqualsFileAndEmptyFileHasNoBatches) {
  recflow::testing::ScratchDir dir;
  const std::string path = dir.File("p.avro");
  const std::string empty_path = dir.File("empty.avro");
  {
    TestWriter w(path, kPrimitives, "deflate");
    ASSERT_TRUE(w.ok()) << avro_strerror();
    for (int k = 0; k < 3; ++k) ASSERT_NO_FATAL_FAILURE(WritePrimitives(w, k));
    TestWriter empty(empty_path, kPrimitives);
    ASSERT_TRUE(empty.ok());
  }
  auto from_file = ReadAll(path);
  ASSERT_TRUE(from_file.ok()) << from_file.status().ToString();
  auto mapped = Buffer::MapFile(path);
  ASSERT_TRUE(mapped.ok());
  auto reader = AvroReader::FromBuffer(*mapped, "mem.avro", ReadOptions::Defaults());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto batch = (*reader)->Next();
  ASSERT_TRUE(batch.ok() && *batch);
  EXPECT_TRUE((*batch)->Equals(*(*from_file)[0]));
  EXPECT_EQ((*reader)->records_read(), 3);
  auto end = (*reader)->Next();
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, nullptr);

  auto empty = AvroReader::Open(empty_path, ReadOptions::Defaults());
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_EQ((*empty)->schema()->num_fields(), 8);
  auto none = (*empty)->Next();
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(*none, nullptr);
}

}  // namespace
}  // namespace recflow::avro
