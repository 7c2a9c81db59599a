// Tests for CSV output: exact bytes, quoting, options, errors, and round trips through CsvReader.
#include "recflow/formats/csv/csv_output_format.h"

#include <gtest/gtest.h>

#include <limits>

#include "recflow/formats/csv/test_util_internal.h"
#include "recflow/columnar/value_formatting.h"
#include "recflow/formats/output_format_test_util_internal.h"

namespace recflow::csv {
namespace {

using recflow::testing::AllRows;
using recflow::testing::Column;
using recflow::testing::EncodeAll;
using recflow::testing::MakeBatch;
using recflow::testing::Strings;
using recflow::testing::TimestampField;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::shared_ptr<const OutputFormat> Format(const SchemaPtr& schema, const WriteOptions& options = WriteOptions::Defaults()) {
  auto format = MakeCsvOutputFormat(schema, options);
  EXPECT_TRUE(format.ok()) << format.status().ToString();
  return *format;
}

// The header and every row of `batch`.
std::string WriteFile(const RecordBatch& batch, const WriteOptions& options = WriteOptions::Defaults()) {
  auto format = Format(batch.schema(), options);
  auto out = EncodeAll(*format, batch);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  return format->FileHeader() + out->bytes;
}

// Reads `text` back with `schema`, the options matching `write`.
std::shared_ptr<RecordBatch> ReadBack(const std::string& text, const SchemaPtr& schema,
                                      const WriteOptions& write = WriteOptions::Defaults()) {
  ReadOptions options = ReadOptions::Defaults();
  options.schema = schema;
  options.header = write.header;
  options.dialect.delimiter = write.delimiter;
  options.dialect.quote = write.quote;
  options.null_values = {write.null_text};
  auto batch = testing::ReadOne(text, options);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString() << "\n" << text;
  return batch.ok() ? *batch : nullptr;
}

std::shared_ptr<RecordBatch> MixedBatch() {
  return MakeBatch({Field::Make("flag", boolean()), Field::Make("n", int64()), Field::Make("x", float64()),
                    Field::Make("s", utf8()), TimestampField("t")},
                   {Column<bool>({true, false, std::nullopt}), Column<int64_t>({-7, std::nullopt, 0}),
                    Column<double>({0.1, kInf, kNaN}), Strings({"a,b", "", std::nullopt}),
                    Column<int64_t>({1706704496123456, std::nullopt, -1})});
}

TEST(CsvOutputFormatTest, ExactBytes) {
  auto batch = MixedBatch();
  auto format = Format(batch->schema());
  EXPECT_EQ(format->name(), "csv");
  EXPECT_EQ(format->suffix(), ".csv");
  EXPECT_EQ(format->FileHeader(), "flag,n,x,s,t\n");
  auto out = EncodeAll(*format, *batch);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  recflow::testing::ExpectRecords(*out, {"true,-7,0.1,\"a,b\",2024-01-31T12:34:56.123456Z\n",  //
                                         "false,,inf,\"\",\n",                                   //
                                         ",0,nan,,1969-12-31T23:59:59.999999Z\n"});
}

TEST(CsvOutputFormatTest, QuotesOnlyWhatNeedsIt) {
  auto batch = MakeBatch({Field::Make("s", utf8())},
                         {Strings({"plain", "say \"hi\"", "two\nlines", "cr\rlf", " lead", "trail\t", "in ner",
                                   "caf\xc3\xa9", "5\"", "", std::nullopt})});
  auto out = EncodeAll(*Format(batch->schema()), *batch);
  ASSERT_TRUE(out.ok());
  recflow::testing::ExpectRecords(*out, {"plain\n", "\"say \"\"hi\"\"\"\n", "\"two\nlines\"\n", "\"cr\rlf\"\n",
                                         "\" lead\"\n", "\"trail\t\"\n", "in ner\n", "caf\xc3\xa9\n",
                                         "\"5\"\"\"\n", "\"\"\n", "\"\"\n"});
}

TEST(CsvOutputFormatTest, Options) {
  auto batch = MakeBatch({Field::Make("a;b", utf8()), Field::Make("n", int32())},
                         {Strings({"NA", "x;y", "it's", std::nullopt}), Column<int32_t>({1, 2, std::nullopt, 4})});
  WriteOptions options;
  options.delimiter = ';';
  options.quote = '\'';
  options.null_text = "NA";
  options.line_terminator = "\r\n";
  auto format = Format(batch->schema(), options);
  EXPECT_EQ(format->FileHeader(), "'a;b';n\r\n");
  auto out = EncodeAll(*format, *batch);
  ASSERT_TRUE(out.ok());
  recflow::testing::ExpectRecords(*out, {"'NA';1\r\n", "'x;y';2\r\n", "'it''s';NA\r\n", "NA;4\r\n"});
  auto back = ReadBack(format->FileHeader() + out->bytes, batch->schema(), options);
  ASSERT_NE(back, nullptr);
  EXPECT_TRUE(back->Equals(*batch)) << back->ToString();

  options.header = false;
  EXPECT_EQ(Format(batch->schema(), options)->FileHeader(), "");
}

TEST(CsvOutputFormatTest, InvalidOptions) {
  auto schema = Schema::Make({Field::Make("s", utf8())});
  const auto expect_invalid = [&](auto change) {
    WriteOptions options;
    change(options);
    EXPECT_EQ(MakeCsvOutputFormat(schema, options).status().code(), StatusCode::kInvalidArgument);
  };
  expect_invalid([](WriteOptions& o) { o.delimiter = '"'; });
  expect_invalid([](WriteOptions& o) { o.quote = '\n'; });
  expect_invalid([](WriteOptions& o) { o.delimiter = '\r'; });
  expect_invalid([](WriteOptions& o) { o.line_terminator = "\r"; });
  expect_invalid([](WriteOptions& o) { o.null_text = "a,b"; });
  expect_invalid([](WriteOptions& o) { o.null_text = "\"\""; });
  EXPECT_EQ(MakeCsvOutputFormat(nullptr).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeCsvOutputFormat(Schema::Make({})).status().code(), StatusCode::kInvalidArgument);
}

TEST(CsvOutputFormatTest, ColumnsTheEncoderCannotWriteAreTypeErrorsNamingTheColumn) {
  for (const auto& [name, type] : std::vector<std::pair<std::string, DataTypePtr>>{
           {"bytes", binary()},
           {"tags", list(utf8())},
           {"point", struct_({Field::Make("x", float32())})},
           {"large_tags", large_list(Field::Make("item", utf8()))},
           {"pair", fixed_size_list(Field::Make("item", int32()), 2)},
           {"counts", map(Field::Make("key", utf8(), false), Field::Make("value", int64()))},
           {"half", float16()},
           {"when", timestamp(TimeUnit::kMicro)},
           {"day", date32()},
           {"took", duration(TimeUnit::kNano)},
           {"text", large_utf8()}}) {
    const Status st = MakeCsvOutputFormat(Schema::Make({Field::Make("ok", int64()), Field::Make(name, type)})).status();
    EXPECT_EQ(st.code(), StatusCode::kTypeError) << name;
    EXPECT_EQ(st.context().field, name);
  }
}

TEST(CsvOutputFormatTest, RoundTripsThroughCsvReader) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  auto batch = MakeBatch(
      {Field::Make("b", boolean()), Field::Make("i8", int8()), Field::Make("i64", int64()),
       Field::Make("u64", uint64()), Field::Make("f32", float32()), Field::Make("f64", float64()),
       Field::Make("s", utf8()), TimestampField("t")},
      {Column<bool>({true, false, std::nullopt, true, false, true, false}),
       Column<int8_t>({-128, 127, 0, std::nullopt, -1, 1, 2}),
       Column<int64_t>({kMin, kMax, 0, -1, std::nullopt, 1, 2}),
       Column<uint64_t>({std::numeric_limits<uint64_t>::max(), 0, std::nullopt, 1, 2, 3, 4}),
       Column<float>({0.1f, -0.0f, 3.4028235e38f, 1e-45f, std::numeric_limits<float>::infinity(),
                      std::numeric_limits<float>::quiet_NaN(), std::nullopt}),
       Column<double>({0.1, -kInf, kInf, kNaN, 5e-324, 1.7976931348623157e308, std::nullopt}),
       Strings({"quote \" in", "comma, in", "new\nline", "crlf\r\n", "", std::nullopt,
                "\xe2\x82\xac \xf0\x9f\x98\x80 \xe4\xb8\xad"}),
       Column<int64_t>({1706704496123456, -1, std::nullopt, kMinTextTimestampMicros, kMaxTextTimestampMicros, 0,
                        951782400000001})});
  const std::string text = WriteFile(*batch);
  auto back = ReadBack(text, batch->schema());
  ASSERT_NE(back, nullptr);
  EXPECT_TRUE(back->Equals(*batch)) << text << "\n" << back->ToString();
  EXPECT_TRUE(IsTimestampField(*back->schema()->field(7)));
}

TEST(CsvOutputFormatTest, InferenceReadsTimestampsAndNumbersBack) {
  // Inference marks columns without nulls non-nullable.
  auto batch = MakeBatch({Field::Make("x", float64(), false), TimestampField("t"), Field::Make("s", utf8(), false)},
                         {Column<double>({1.5, kNaN, -kInf}), Column<int64_t>({0, 1706704496123456, std::nullopt}),
                          Strings({"a", "", "b"})});
  auto back = testing::ReadOne(WriteFile(*batch));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE((*back)->Equals(*batch)) << (*back)->ToString();
  EXPECT_TRUE(IsTimestampField(*(*back)->schema()->field(1)));
}

TEST(CsvOutputFormatTest, SingleColumnNullIsNotAnEmptyLine) {
  auto batch = MakeBatch({Field::Make("n", int64())}, {Column<int64_t>({1, std::nullopt, 3})});
  const std::string text = WriteFile(*batch);
  EXPECT_EQ(text, "n\n1\n\"\"\n3\n");
  auto back = ReadBack(text, batch->schema());
  ASSERT_NE(back, nullptr);
  EXPECT_TRUE(back->Equals(*batch)) << back->ToString();
}

TEST(CsvOutputFormatTest, RowsInAnyOrderWithRepeatsAndSlices) {
  auto batch = MixedBatch();
  auto format = Format(batch->schema());
  auto encoder = format->NewEncoder();
  ASSERT_TRUE(encoder.ok());
  EncodedRecords out;
  const std::vector<int64_t> rows{2, 0, 2, 1};
  ASSERT_TRUE((*encoder)->Encode(*batch, rows, &out).ok());
  // Appending to what is there: ends continue from the previous bytes.
  ASSERT_TRUE((*encoder)->Encode(*batch->Slice(1, 2), std::vector<int64_t>{1}, &out).ok());
  std::vector<std::string> singles;
  for (int64_t row : {2, 0, 2, 1, 2}) {
    EncodedRecords one;
    ASSERT_TRUE((*encoder)->Encode(*batch, std::vector<int64_t>{row}, &one).ok());
    singles.push_back(one.bytes);
  }
  recflow::testing::ExpectRecords(out, singles);
  auto back = ReadBack(format->FileHeader() + out.bytes, batch->schema());
  ASSERT_NE(back, nullptr);
  recflow::testing::ExpectRowsEqual(*back, *batch, {2, 0, 2, 1, 2});
  // No rows: nothing appended.
  const size_t size = out.bytes.size();
  ASSERT_TRUE((*encoder)->Encode(*batch, {}, &out).ok());
  EXPECT_EQ(out.bytes.size(), size);
}

TEST(CsvOutputFormatTest, ErrorsNameColumnAndRowAndLeaveOutputUnchanged) {
  auto batch = MakeBatch({Field::Make("s", utf8()), TimestampField("t")},
                         {Strings({"a", "b", "c"}), Column<int64_t>({0, 1, kMaxTextTimestampMicros + 1})});
  recflow::testing::ExpectFailureLeavesOutput(*Format(batch->schema()), *batch, 2, StatusCode::kTypeError, "t");
}

}  // namespace
}  // namespace recflow::csv
