// Tests for JsonlReader: scalars, lists, structs, nulls, missing keys, schemas, framing and batching.
#include "recflow/formats/jsonl/jsonl_reader.h"

#include <gtest/gtest.h>

#include <limits>

#include <span>
#include <string>

#include "recflow/formats/jsonl/test_util_internal.h"

namespace recflow::jsonl {
namespace {

using testing::ReadBatches;
using testing::ReadOne;
using testing::Str;

TEST(JsonlReaderTest, Scalars) {
  auto batch = ReadOne(R"({"b": true, "i": -7, "f": 2.5, "s": "h\u00e9\n", "t": "2024-01-02T03:04:05Z"})"
                       "\n"
                       R"({"b": false, "i": 9007199254740993, "f": 1, "s": "", "t": "1970-01-01"})");
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  const auto& b = **batch;
  ASSERT_EQ(b.num_rows(), 2);
  EXPECT_EQ(b.schema()->ToString(), "b: bool not null\ni: int64 not null\nf: float64 not null\n"
                                    "s: utf8 not null\nt: int64 not null");
  EXPECT_TRUE(BooleanArray(b.column_data(0)).Value(0));
  EXPECT_FALSE(BooleanArray(b.column_data(0)).Value(1));
  EXPECT_EQ(Int64Array(b.column_data(1)).Value(0), -7);
  EXPECT_EQ(Int64Array(b.column_data(1)).Value(1), 9007199254740993);
  EXPECT_EQ(Float64Array(b.column_data(2)).Value(0), 2.5);
  EXPECT_EQ(Float64Array(b.column_data(2)).Value(1), 1.0);
  EXPECT_EQ(Str(b.column_data(3), 0), "h\xC3\xA9\n");
  EXPECT_EQ(Str(b.column_data(3), 1), "");
  EXPECT_EQ(Int64Array(b.column_data(4)).Value(0), int64_t{1704164645} * 1000000);
  EXPECT_EQ(Int64Array(b.column_data(4)).Value(1), 0);
  EXPECT_TRUE(IsTimestampField(*b.schema()->field(4)));
}

TEST(JsonlReaderTest, ArraysOfScalars) {
  auto batch = ReadOne("{\"v\": [1, 2, 3]}\n{\"v\": []}\n{\"v\": null}\n{\"v\": [4, null]}\n");
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  const auto& b = **batch;
  EXPECT_EQ(b.schema()->field(0)->ToString(), "v: list<int64>");
  ListArray list(b.column_data(0));
  ASSERT_EQ(list.length(), 4);
  EXPECT_EQ(list.value_length(0), 3);
  EXPECT_EQ(list.value_length(1), 0);
  EXPECT_TRUE(list.IsNull(2));
  EXPECT_EQ(list.value_length(3), 2);
  Int64Array items(list.values());
  EXPECT_EQ(items.Value(2), 3);
  EXPECT_EQ(items.Value(3), 4);
  EXPECT_TRUE(items.IsNull(4));
}

TEST(JsonlReaderTest, NestedObjectsBecomeStructs) {
  auto batch = ReadOne(R"({"p": {"x": 1, "q": {"name": "a"}}, "k": 1})"
                       "\n"
                       R"({"k": 2, "p": {"q": {"name": "b", "extra": [true]}}})"
                       "\n"
                       R"({"k": 3, "p": null})");
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  const auto& b = **batch;
  EXPECT_EQ(b.schema()->ToString(),
            "p: struct<x: int64, q: struct<name: utf8 not null, extra: list<bool not null>> not null>\n"
            "k: int64 not null");
  StructArray p(b.column_data(0));
  EXPECT_TRUE(p.IsValid(0));
  EXPECT_TRUE(p.IsNull(2));
  Int64Array x(p.field(0));
  EXPECT_EQ(x.Value(0), 1);
  EXPECT_TRUE(x.IsNull(1));  // missing key
  StructArray q(p.field(1));
  EXPECT_EQ(Str(q.field(0), 1), "b");
  ListArray extra(q.field(1));
  EXPECT_TRUE(extra.IsNull(0));
  EXPECT_EQ(extra.value_length(1), 1);
}

TEST(JsonlReaderTest, NullsAndMissingKeys) {
  auto batch = ReadOne("{\"a\": 1, \"b\": \"x\"}\n{\"a\": null}\n{}\n");
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  const auto& b = **batch;
  EXPECT_EQ(b.schema()->ToString(), "a: int64\nb: utf8");
  EXPECT_TRUE(Int64Array(b.column_data(0)).IsNull(1));
  EXPECT_TRUE(Int64Array(b.column_data(0)).IsNull(2));
  EXPECT_EQ(Str(b.column_data(1), 0), "x");
  EXPECT_EQ(Str(b.column_data(1), 1), "<null>");
}

TEST(JsonlReaderTest, ExplicitSchemaOverridesInference) {
  auto options = ReadOptions::Defaults();
  options.schema = Schema::Make({Field::Make("id", int32(), false), Field::Make("score", float32()),
                                 Field::Make("raw", utf8()), Field::Make("tags", list(utf8())),
                                 Field::Make("absent", boolean())});
  auto batch = ReadOne(R"({"id": 5, "ignored": {"deep": 1}, "score": 3, "raw": {"a": [1, "x"]}, "tags": ["a"]})"
                       "\n"
                       R"({"id": -1, "raw": 2.5e0, "tags": [null, "b"]})",
                       options);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  const auto& b = **batch;
  EXPECT_TRUE(b.schema()->Equals(*options.schema));
  EXPECT_EQ(Int32Array(b.column_data(0)).Value(1), -1);
  EXPECT_EQ(Float32Array(b.column_data(1)).Value(0), 3.0f);
  EXPECT_EQ(Str(b.column_data(2), 0), R"({"a":[1,"x"]})");  // non-strings keep their JSON text
  EXPECT_EQ(Str(b.column_data(2), 1), "2.5");
  EXPECT_TRUE(BooleanArray(b.column_data(4)).IsNull(0));
}

TEST(JsonlReaderTest, ExplicitSchemaTypesAreChecked) {
  auto options = ReadOptions::Defaults();
  options.schema = Schema::Make({Field::Make("n", int8())});
  auto batch = ReadOne("{\"n\": 127}\n{\"n\": 128}\n", options);
  ASSERT_FALSE(batch.ok());
  EXPECT_NE(batch.status().message().find("integer 128 out of range for int8"), std::string::npos)
      << batch.status().ToString();
  // float32 takes every number that rounds to a finite float; the first past it is refused.
  options.schema = Schema::Make({Field::Make("f", float32())});
  auto edge = ReadOne("{\"f\": 3.4028235e+38}\n{\"f\": -3.40282356e38}\n", options);
  ASSERT_TRUE(edge.ok()) << edge.status().ToString();
  EXPECT_EQ(Float32Array((*edge)->column_data(0)).Value(0), std::numeric_limits<float>::max());
  EXPECT_EQ(Float32Array((*edge)->column_data(0)).Value(1), -std::numeric_limits<float>::max());
  auto over = ReadOne("{\"f\": 3.4028236e38}\n", options);
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.status().message().find("out of range for float32"), std::string::npos) << over.status().ToString();
  options.schema = Schema::Make({Field::Make("m", null())});
  EXPECT_EQ(JsonlReader::FromBuffer(Buffer::FromString("{}"), "x", options).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(JsonlReaderTest, BomCrlfAndBlankLines) {
  auto batch = ReadOne("\xEF\xBB\xBF{\"a\": 1}\r\n\r\n   \n\t\r\n{\"a\": 2}\r\n\n{\"a\": 3}");
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_EQ((*batch)->num_rows(), 3);
  EXPECT_EQ(Int64Array((*batch)->column_data(0)).Value(2), 3);
}

TEST(JsonlReaderTest, EmptyInputHasNoColumnsAndNoBatches) {
  auto batches = ReadBatches("\n\n", ReadOptions::Defaults());
  ASSERT_TRUE(batches.ok());
  EXPECT_TRUE(batches->empty());
}

TEST(JsonlReaderTest, RecordLargerThanBlock) {
  // 3 MiB: larger than the default 1 MiB block and simdjson's initial parser capacity.
  const std::string big(size_t{3} << 20, 'x');
  const std::string text = "{\"s\": \"a\"}\n{\"s\": \"" + big + "\"}\n{\"s\": \"b\"}\n";
  for (const int64_t block_size : {int64_t{1} << 20, int64_t{4096}}) {
    auto options = ReadOptions::Defaults();
    options.block_size = block_size;
    auto batch = ReadOne(text, options);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    EXPECT_EQ(Str((*batch)->column_data(0), 1), big);
    EXPECT_EQ(Str((*batch)->column_data(0), 2), "b");
  }
  auto one_byte_blocks = ReadOptions::Defaults();
  one_byte_blocks.block_size = 1;
  auto small = ReadOne("{\"s\": \"" + std::string(5000, 'y') + "\"}\n{\"s\": \"b\"}", one_byte_blocks);
  ASSERT_TRUE(small.ok()) << small.status().ToString();
  EXPECT_EQ(Str((*small)->column_data(0), 1), "b");
  auto options = ReadOptions::Defaults();
  options.max_record_bytes = 1000;
  auto too_long = ReadOne(text, options);
  ASSERT_FALSE(too_long.ok());
  EXPECT_EQ(too_long.status().context().offset, 11);
  EXPECT_NE(too_long.status().message().find("line 2"), std::string::npos) << too_long.status().ToString();
}

TEST(JsonlReaderTest, BatchesSpanSampleAndStream) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "{\"i\": " + std::to_string(i) + "}\n";
  auto options = ReadOptions::Defaults();
  options.batch_rows = 64;
  options.inference_rows = 100;
  options.block_size = 333;
  auto batches = ReadBatches(text, options);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  ASSERT_EQ(batches->size(), 16u);
  int64_t expected = 0;
  for (const auto& batch : *batches) {
    Int64Array column(batch->column_data(0));
    for (int64_t r = 0; r < batch->num_rows(); ++r) EXPECT_EQ(column.Value(r), expected++);
  }
  EXPECT_EQ(expected, 1000);
  EXPECT_EQ(batches->back()->num_rows(), 1000 - 15 * 64);
}

}  // namespace
}  // namespace recflow::jsonl
