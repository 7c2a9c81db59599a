// Tests for CsvReader's dialect: RFC 4180 quoting, CRLF, BOM, empty lines, comments, nulls, naming.
#include "recflow/formats/csv/csv_reader.h"

#include <gtest/gtest.h>

#include <string>

#include "recflow/formats/csv/test_util_internal.h"

namespace recflow::csv {
namespace {

using testing::ReadOne;
using testing::Str;

ReadOptions AllStrings(int columns, bool header = true) {
  auto options = ReadOptions::Defaults();
  options.header = header;
  std::vector<FieldPtr> fields;
  for (int i = 0; i < columns; ++i) fields.push_back(Field::Make(std::string("s").append(std::to_string(i)), utf8()));
  options.schema = Schema::Make(fields);
  return options;
}

TEST(CsvReaderTest, Rfc4180Quoting) {
  auto batch = ReadOne("a,b\n\"x,y\",\"he said \"\"hi\"\"\"\n\"multi\nline\",\"\"\n", AllStrings(2));
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_EQ((*batch)->num_rows(), 2);
  EXPECT_EQ(Str(**batch, 0, 0), "x,y");
  EXPECT_EQ(Str(**batch, 1, 0), "he said \"hi\"");
  EXPECT_EQ(Str(**batch, 0, 1), "multi\nline");
  EXPECT_EQ(Str(**batch, 1, 1), "");  // a quoted empty string is not null
}

TEST(CsvReaderTest, EmptyUnquotedFieldIsNull) {
  auto batch = ReadOne("a,b\n,\"\"\n", AllStrings(2));
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(Str(**batch, 0, 0), "<null>");
  EXPECT_EQ(Str(**batch, 1, 0), "");
}

TEST(CsvReaderTest, CustomNullValuesApplyToUnquotedFieldsOnly) {
  auto options = AllStrings(3);
  options.null_values = {"NA", "null"};
  auto batch = ReadOne("a,b,c\nNA,\"NA\",\n", options);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(Str(**batch, 0, 0), "<null>");
  EXPECT_EQ(Str(**batch, 1, 0), "NA");
  EXPECT_EQ(Str(**batch, 2, 0), "");  // "" is no longer a null spelling
}

TEST(CsvReaderTest, CrlfAndBomAndNoTrailingNewline) {
  auto batch = ReadOne("\xEF\xBB\xBFk,v\r\n1,\"a\r\nb\"\r\n2,c", AllStrings(2));
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ((*batch)->schema()->field(0)->name(), "s0");
  ASSERT_EQ((*batch)->num_rows(), 2);
  EXPECT_EQ(Str(**batch, 1, 0), "a\r\nb");
  EXPECT_EQ(Str(**batch, 1, 1), "c");
  auto inferred = ReadOne("\xEF\xBB\xBFk,v\r\n1,x\r\n");
  ASSERT_TRUE(inferred.ok());
  EXPECT_EQ((*inferred)->schema()->field(0)->name(), "k");
  EXPECT_EQ(Str(**inferred, 1, 0), "x");
}

TEST(CsvReaderTest, LoneCrIsData) {
  auto batch = ReadOne("a\nx\ry\n", AllStrings(1));
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(Str(**batch, 0, 0), "x\ry");
}

TEST(CsvReaderTest, EmptyLinesAreSkipped) {
  auto batch = ReadOne("\na,b\n\n1,2\r\n\r\n\n3,4\n\n", AllStrings(2));
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_EQ((*batch)->num_rows(), 2);
  EXPECT_EQ(Str(**batch, 0, 1), "3");
}

TEST(CsvReaderTest, QuotedEmptyLineIsARow) {
  auto batch = ReadOne("a\n\"\"\n\n", AllStrings(1));
  ASSERT_TRUE(batch.ok());
  ASSERT_EQ((*batch)->num_rows(), 1);
  EXPECT_EQ(Str(**batch, 0, 0), "");
}

TEST(CsvReaderTest, QuoteInsideUnquotedFieldIsLiteral) {
  auto batch = ReadOne("a,b\n5\"6,x\"y\"\n", AllStrings(2));
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(Str(**batch, 0, 0), "5\"6");
  EXPECT_EQ(Str(**batch, 1, 0), "x\"y\"");
}

TEST(CsvReaderTest, TrailingDelimiterMakesEmptyLastField) {
  auto batch = ReadOne("a,b\nx,\n", AllStrings(2));
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(Str(**batch, 1, 0), "<null>");
}

TEST(CsvReaderTest, NoHeaderNamesColumnsLikeSpark) {
  auto options = ReadOptions::Defaults();
  options.header = false;
  auto batch = ReadOne("1,x\n2,y\n", options);
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ((*batch)->schema()->field(0)->name(), "_c0");
  EXPECT_EQ((*batch)->schema()->field(1)->name(), "_c1");
  EXPECT_EQ((*batch)->num_rows(), 2);
}

TEST(CsvReaderTest, EmptyHeaderNamesGetSparkNames) {
  auto batch = ReadOne("a,,\"\"\n1,2,3\n");
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ((*batch)->schema()->field(1)->name(), "_c1");
  EXPECT_EQ((*batch)->schema()->field(2)->name(), "_c2");
}

TEST(CsvReaderTest, CustomDelimiterQuoteAndComments) {
  auto options = ReadOptions::Defaults();
  options.dialect.delimiter = ';';
  options.dialect.quote = '\'';
  options.dialect.comment = '#';
  auto batch = ReadOne("# leading 'comment\nx;y\n'a;b';'it''s'\n#mid\n'#';2\n", options);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_EQ((*batch)->num_rows(), 2);
  EXPECT_EQ(Str(**batch, 0, 0), "a;b");
  EXPECT_EQ(Str(**batch, 1, 0), "it's");
  EXPECT_EQ(Str(**batch, 0, 1), "#");
}

TEST(CsvReaderTest, TabDelimited) {
  auto options = ReadOptions::Defaults();
  options.dialect.delimiter = '\t';
  auto batch = ReadOne("a\tb\n1\tx y\n", options);
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(Str(**batch, 1, 0), "x y");
}

TEST(CsvReaderTest, WideRows) {
  std::string text;
  for (int c = 0; c < 1000; ++c) {
    text += c ? ",h" : "h";
    text += std::to_string(c);
  }
  text += "\n";
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 1000; ++c) {
      if (c) text += ',';
      text += std::to_string(r * 1000 + c);
    }
    text += "\n";
  }
  auto batch = ReadOne(text);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_EQ((*batch)->num_columns(), 1000);
  ASSERT_EQ((*batch)->num_rows(), 3);
  EXPECT_EQ((*batch)->schema()->field(999)->name(), "h999");
  EXPECT_EQ(Int64Array((*batch)->column_data(999)).Value(2), 2999);
}

TEST(CsvReaderTest, EmptyInputs) {
  for (const char* text : {"", "\xEF\xBB\xBF", "\n\n", "a,b\n"}) {
    auto batch = ReadOne(text);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    EXPECT_EQ((*batch)->num_rows(), 0);
  }
  auto header_only = ReadOne("a,b\n");
  EXPECT_EQ((*header_only)->num_columns(), 2);
}

TEST(CsvReaderTest, BatchesOfBatchRows) {
  auto options = ReadOptions::Defaults();
  options.batch_rows = 2;
  auto batches = testing::ReadBatches("n\n1\n2\n3\n4\n5\n", options);
  ASSERT_TRUE(batches.ok());
  ASSERT_EQ(batches->size(), 3u);
  EXPECT_EQ((*batches)[2]->num_rows(), 1);
  EXPECT_EQ(Int64Array((*batches)[2]->column_data(0)).Value(0), 5);
}

TEST(CsvReaderTest, ExplicitSchemaOverridesHeaderAndInference) {
  auto options = ReadOptions::Defaults();
  options.schema = Schema::Make({Field::Make("id", int32(), false), Field::Make("score", float32())});
  auto batch = ReadOne("x,y\n7,1.5\n8,\n", options);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ((*batch)->schema()->field(0)->name(), "id");
  EXPECT_EQ(Int32Array((*batch)->column_data(0)).Value(1), 8);
  EXPECT_EQ(Float32Array((*batch)->column_data(1)).Value(0), 1.5f);
  EXPECT_TRUE(Float32Array((*batch)->column_data(1)).IsNull(1));
}

TEST(CsvReaderTest, ExpectedHeaderNamesTheFirstDifferingColumn) {
  auto options = ReadOptions::Defaults();
  options.expected_header = {"a", "b", "c"};
  EXPECT_TRUE(ReadOne("a,b,c\n1,2,3\n", options).ok());
  EXPECT_TRUE(ReadOne("", options).ok());  // an empty file has no header to differ
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"a,c,b\n1,3,2\n", "column 2 is 'c', expected 'b'"},
           {"a,b\n1,2\n", "column 3 is missing, expected 'c'"},
           {"a,b,c,d\n1,2,3,4\n", "column 4 is 'd', expected no column"}}) {
    auto batch = ReadOne(text, options);
    ASSERT_FALSE(batch.ok()) << text;
    EXPECT_EQ(batch.status().code(), StatusCode::kDataError);
    EXPECT_NE(batch.status().message().find(why), std::string::npos) << batch.status().ToString();
    EXPECT_FALSE(batch.status().context().file.empty());
  }
}

TEST(CsvReaderTest, RejectsBadOptions) {
  auto options = ReadOptions::Defaults();
  options.dialect.delimiter = '"';
  EXPECT_FALSE(ReadOne("a\n", options).ok());
  options = ReadOptions::Defaults();
  options.block_size = 0;
  EXPECT_FALSE(ReadOne("a\n", options).ok());
  options = ReadOptions::Defaults();
  options.schema = Schema::Make({Field::Make("l", list(int64()))});
  EXPECT_EQ(ReadOne("a\n", options).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace recflow::csv
