// Tests for JSON Lines output: exact bytes, errors, and round trips through JsonlReader.
#include "recflow/formats/jsonl/jsonl_output_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "recflow/formats/csv/csv_reader.h"
#include "recflow/columnar/value_formatting.h"
#include "recflow/formats/jsonl/test_util_internal.h"
#include "recflow/formats/output_format_test_util_internal.h"

namespace recflow::jsonl {
namespace {

using recflow::testing::Column;
using recflow::testing::EncodeAll;
using recflow::testing::MakeBatch;
using recflow::testing::Strings;
using recflow::testing::TimestampField;

std::shared_ptr<const OutputFormat> Format(const SchemaPtr& schema) {
  auto format = MakeJsonlOutputFormat(schema);
  EXPECT_TRUE(format.ok()) << format.status().ToString();
  return *format;
}

std::string Write(const RecordBatch& batch) {
  auto out = EncodeAll(*Format(batch.schema()), batch);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  return out.ok() ? out->bytes : "";
}

std::shared_ptr<ArrayData> IntLists() {
  ListBuilder b(list(int64()), std::make_unique<Int64Builder>());
  auto* values = static_cast<Int64Builder*>(b.value_builder());
  EXPECT_TRUE(b.Append().ok());
  EXPECT_TRUE(values->Append(1).ok());
  EXPECT_TRUE(values->Append(-2).ok());
  EXPECT_TRUE(b.AppendNull().ok());
  EXPECT_TRUE(b.Append().ok());
  return *b.Finish();
}

std::shared_ptr<ArrayData> Points() {
  std::vector<std::unique_ptr<ArrayBuilder>> children;
  children.push_back(std::make_unique<Float64Builder>());
  children.push_back(std::make_unique<BinaryBuilder>(utf8()));
  StructBuilder b(struct_({Field::Make("x", float64()), Field::Make("label", utf8())}), std::move(children));
  EXPECT_TRUE(b.Append().ok());
  EXPECT_TRUE(static_cast<Float64Builder*>(b.field_builder(0))->Append(0.5).ok());
  EXPECT_TRUE(static_cast<BinaryBuilder*>(b.field_builder(1))->Append("p\"q").ok());
  EXPECT_TRUE(b.AppendNull().ok());
  EXPECT_TRUE(b.Append().ok());
  EXPECT_TRUE(static_cast<Float64Builder*>(b.field_builder(0))->AppendNull().ok());
  EXPECT_TRUE(static_cast<BinaryBuilder*>(b.field_builder(1))->Append("").ok());
  return *b.Finish();
}

TEST(JsonlOutputFormatTest, ExactBytes) {
  auto batch = MakeBatch({Field::Make("i", int64()), Field::Make("s", utf8()), TimestampField("t"),
                          Field::Make("l", list(int64())), Field::Make("p", Points()->type)},
                         {Column<int64_t>({1, std::nullopt, -3}), Strings({"a\"b\n", "caf\xc3\xa9", std::nullopt}),
                          Column<int64_t>({1706704496123456, std::nullopt, 0}), IntLists(), Points()});
  auto format = Format(batch->schema());
  EXPECT_EQ(format->name(), "jsonl");
  EXPECT_EQ(format->suffix(), ".jsonl");
  EXPECT_EQ(format->FileHeader(), "");
  auto out = EncodeAll(*format, *batch);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  recflow::testing::ExpectRecords(
      *out, {R"({"i":1,"s":"a\"b\n","t":"2024-01-31T12:34:56.123456Z","l":[1,-2],"p":{"x":0.5,"label":"p\"q"}})" "\n",
             "{\"i\":null,\"s\":\"caf\xc3\xa9\",\"t\":null,\"l\":null,\"p\":null}\n",
             R"({"i":-3,"s":null,"t":"1970-01-01T00:00:00.000000Z","l":[],"p":{"x":null,"label":""}})" "\n"});
}

TEST(JsonlOutputFormatTest, NonFiniteFloatsAreStringsThatReadBackAsFloats) {
  // JSON has no NaN or infinities; they are written as `recflow cat` writes them, and JsonlReader
  // reads them back into the float column, with the schema and by inference (beside numbers).
  constexpr float kInf = std::numeric_limits<float>::infinity();
  auto batch = MakeBatch({Field::Make("x", float32()), Field::Make("y", float64())},
                         {Column<float>({std::numeric_limits<float>::quiet_NaN(), kInf, -kInf, 0.5f}),
                          Column<double>({1.5, -std::numeric_limits<double>::infinity(), std::nullopt, 2})});
  const std::string text = Write(*batch);
  EXPECT_EQ(text,
            "{\"x\":\"NaN\",\"y\":1.5}\n{\"x\":\"Infinity\",\"y\":\"-Infinity\"}\n{\"x\":\"-Infinity\",\"y\":null}\n"
            "{\"x\":0.5,\"y\":2.0}\n");
  ReadOptions options = ReadOptions::Defaults();
  options.schema = batch->schema();
  auto back = testing::ReadOne(text, options);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE((*back)->Equals(*batch)) << (*back)->ToString();  // NaN equals NaN here
  auto inferred = testing::ReadOne(text);
  ASSERT_TRUE(inferred.ok()) << inferred.status().ToString();
  EXPECT_EQ((*inferred)->schema()->ToString(), "x: float64 not null\ny: float64");
  const Float64Array x((*inferred)->column_data(0));
  EXPECT_TRUE(std::isnan(x.Value(0)));
  EXPECT_EQ(x.Value(1), std::numeric_limits<double>::infinity());
  EXPECT_EQ(x.Value(2), -std::numeric_limits<double>::infinity());
  // Only the three exact spellings: "nan" is text, and a float column refuses it naming the row.
  options.schema = Schema::Make({Field::Make("x", float64())});
  auto lower = testing::ReadOne("{\"x\":\"nan\"}\n", options);
  ASSERT_FALSE(lower.ok());
  EXPECT_NE(lower.status().message().find("line 1"), std::string::npos) << lower.status().ToString();
}

TEST(JsonlOutputFormatTest, RoundTripsThroughJsonlReader) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  auto batch = MakeBatch(
      {Field::Make("b", boolean()), Field::Make("i8", int8()), Field::Make("i64", int64()),
       Field::Make("u64", uint64()), Field::Make("f32", float32()), Field::Make("f64", float64()),
       Field::Make("s", utf8()), TimestampField("t"), Field::Make("l", list(int64())),
       Field::Make("p", Points()->type)},
      {Column<bool>({true, false, std::nullopt}), Column<int8_t>({-128, 127, std::nullopt}),
       Column<int64_t>({kMin, kMax, std::nullopt}),
       Column<uint64_t>({std::numeric_limits<uint64_t>::max(), 0, std::nullopt}),
       // FLT_MAX's shortest text 3.4028235e+38 is above FLT_MAX as a float64, yet rounds to it.
       Column<float>({0.1f, -std::numeric_limits<float>::max(), 1e-45f}), Column<double>({0.1, 5e-324, 1.7976931348623157e308}),
       Strings({"quote \" back\\slash", "ctl \x01\t\n\r", "\xe2\x82\xac \xf0\x9f\x98\x80"}),
       Column<int64_t>({recflow::kMinTextTimestampMicros, recflow::kMaxTextTimestampMicros, -1}),
       IntLists(), Points()});
  const std::string text = Write(*batch);
  ReadOptions options = ReadOptions::Defaults();
  options.schema = batch->schema();
  auto back = testing::ReadOne(text, options);
  ASSERT_TRUE(back.ok()) << back.status().ToString() << "\n" << text;
  EXPECT_TRUE((*back)->Equals(*batch)) << text << "\n" << (*back)->ToString();
}

TEST(JsonlOutputFormatTest, CsvToJsonlKeepsTimestamps) {
  // CSV text → CsvReader (infers a timestamp) → JSON Lines → JsonlReader (infers it again).
  auto csv_reader = csv::CsvReader::FromBuffer(
      Buffer::FromString("id,at\n1,2024-01-31T12:34:56.5Z\n2,\n3,1969-07-20 20:17:40\n"), "in.csv",
      csv::ReadOptions::Defaults());
  ASSERT_TRUE(csv_reader.ok()) << csv_reader.status().ToString();
  auto from_csv = (*csv_reader)->Next();
  ASSERT_TRUE(from_csv.ok() && *from_csv);
  ASSERT_TRUE(IsTimestampField(*(*from_csv)->schema()->field(1)));
  const std::string text = Write(**from_csv);
  EXPECT_EQ(text,
            "{\"id\":1,\"at\":\"2024-01-31T12:34:56.500000Z\"}\n{\"id\":2,\"at\":null}\n"
            "{\"id\":3,\"at\":\"1969-07-20T20:17:40.000000Z\"}\n");
  auto back = testing::ReadOne(text);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(IsTimestampField(*(*back)->schema()->field(1)));
  EXPECT_TRUE((*back)->Equals(**from_csv)) << (*back)->ToString();
}

TEST(JsonlOutputFormatTest, RowsInAnyOrderWithRepeats) {
  auto batch = MakeBatch({Field::Make("i", int64()), Field::Make("s", utf8())},
                         {Column<int64_t>({10, 11, 12}), Strings({"x", std::nullopt, "z"})});
  auto encoder = Format(batch->schema())->NewEncoder();
  ASSERT_TRUE(encoder.ok());
  EncodedRecords out;
  const std::vector<int64_t> rows{2, 2, 0, 1, 0};
  ASSERT_TRUE((*encoder)->Encode(*batch, rows, &out).ok());
  recflow::testing::ExpectRecords(out, {"{\"i\":12,\"s\":\"z\"}\n", "{\"i\":12,\"s\":\"z\"}\n", "{\"i\":10,\"s\":\"x\"}\n",
                                        "{\"i\":11,\"s\":null}\n", "{\"i\":10,\"s\":\"x\"}\n"});
  ReadOptions options = ReadOptions::Defaults();
  options.schema = batch->schema();
  auto back = testing::ReadOne(out.bytes, options);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  recflow::testing::ExpectRowsEqual(**back, *batch, rows);
  // A slice encodes its own rows.
  EncodedRecords sliced;
  ASSERT_TRUE((*encoder)->Encode(*batch->Slice(1, 2), std::vector<int64_t>{1, 0}, &sliced).ok());
  EXPECT_EQ(sliced.bytes, "{\"i\":12,\"s\":\"z\"}\n{\"i\":11,\"s\":null}\n");
}

TEST(JsonlOutputFormatTest, ErrorsNameColumnAndRowAndLeaveOutputUnchanged) {
  auto batch = MakeBatch({Field::Make("s", utf8()), TimestampField("t")},
                         {Strings({"a", "b"}), Column<int64_t>({0, std::numeric_limits<int64_t>::min()})});
  recflow::testing::ExpectFailureLeavesOutput(*Format(batch->schema()), *batch, 1, StatusCode::kTypeError, "t");
  EXPECT_EQ(MakeJsonlOutputFormat(nullptr).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace recflow::jsonl
