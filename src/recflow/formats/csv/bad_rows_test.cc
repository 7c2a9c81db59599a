// Tests for bad CSV rows: error context (file, line, column, offset) and the skip policy.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "recflow/formats/csv/csv_reader.h"
#include "recflow/formats/csv/test_util_internal.h"

namespace recflow::csv {
namespace {

using testing::ReadOne;

TEST(BadRowsTest, WrongFieldCountNamesLineAndOffset) {
  // Line 2's quoted field spans two lines, so the bad row starts on line 4.
  const std::string text = "a,b\n1,\"x\ny\"\n2,z,extra\n";
  auto batch = ReadOne(text);
  ASSERT_FALSE(batch.ok());
  const Status& st = batch.status();
  EXPECT_EQ(st.code(), StatusCode::kDataError);
  EXPECT_EQ(st.context().file, "test.csv");
  EXPECT_EQ(st.context().offset, static_cast<int64_t>(text.find("2,z")));
  EXPECT_EQ(st.context().record, 1);
  EXPECT_NE(st.message().find("line 4"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("expected 2 fields, found 3"), std::string::npos) << st.ToString();
}

TEST(BadRowsTest, UnparsableValueNamesColumn) {
  auto options = ReadOptions::Defaults();
  options.schema = Schema::Make({Field::Make("id", int64()), Field::Make("ok", boolean())});
  const std::string text = "\xEF\xBB\xBFid,ok\r\n1,true\r\n2,maybe\r\n";
  auto batch = ReadOne(text, options);
  ASSERT_FALSE(batch.ok());
  const Status& st = batch.status();
  EXPECT_EQ(st.context().field, "ok");
  EXPECT_EQ(st.context().offset, static_cast<int64_t>(text.find("maybe")));
  EXPECT_NE(st.message().find("line 3"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("cannot parse 'maybe' as bool"), std::string::npos) << st.ToString();
}

TEST(BadRowsTest, NullInNonNullableColumn) {
  auto options = ReadOptions::Defaults();
  options.schema = Schema::Make({Field::Make("id", int64(), false)});
  auto batch = ReadOne("id\n1\n\"\"\n", options);
  ASSERT_FALSE(batch.ok());
  EXPECT_EQ(batch.status().context().field, "id");
}

TEST(BadRowsTest, StructuralFaults) {
  auto after_quote = ReadOne("a,b\n\"x\"y,1\n");
  ASSERT_FALSE(after_quote.ok());
  EXPECT_NE(after_quote.status().message().find("after a closing quote"), std::string::npos);
  EXPECT_EQ(after_quote.status().context().offset, 7);
  auto unterminated = ReadOne("a,b\n1,2\n3,\"open\n4,5\n");
  ASSERT_FALSE(unterminated.ok());
  EXPECT_NE(unterminated.status().message().find("line 3"), std::string::npos) << unterminated.status().ToString();
  EXPECT_EQ(unterminated.status().context().offset, 10);
}

TEST(BadRowsTest, ErrorIsSticky) {
  auto reader = CsvReader::FromBuffer(Buffer::FromString("a\n1\nx\n"), "s.csv", [] {
    auto o = ReadOptions::Defaults();
    o.schema = Schema::Make({Field::Make("a", int64())});
    return o;
  }());
  ASSERT_TRUE(reader.ok());
  EXPECT_FALSE((*reader)->Next().ok());
  EXPECT_FALSE((*reader)->Next().ok());
}

TEST(BadRowsTest, SkipCollectsRowsInOrder) {
  std::vector<std::string> texts;
  std::vector<int64_t> lines;
  auto options = ReadOptions::Defaults();
  options.schema = Schema::Make({Field::Make("n", int64()), Field::Make("s", utf8())});
  options.bad_rows = formats::BadRowsMode::kSkip;
  options.on_bad_row = [&](const formats::BadRow& row) {
    texts.emplace_back(row.text);
    lines.push_back(row.line);
    EXPECT_EQ(row.error.code(), StatusCode::kDataError);
  };
  auto reader = CsvReader::FromBuffer(Buffer::FromString("n,s\n1,a\nq,b\r\n2,\"c\nd\"\n3\n4,e\n\"5\"x,f\n"), "s.csv",
                                      options);
  ASSERT_TRUE(reader.ok());
  auto batch = (*reader)->Next();
  ASSERT_TRUE(batch.ok() && *batch) << batch.status().ToString();
  EXPECT_EQ((*batch)->num_rows(), 3);
  EXPECT_EQ((*reader)->bad_rows(), 3);
  EXPECT_EQ(texts, (std::vector<std::string>{"q,b", "3", "\"5\"x,f"}));
  EXPECT_EQ(lines, (std::vector<int64_t>{3, 6, 8}));
  Int64Array n((*batch)->column_data(0));
  EXPECT_EQ(n.Value(2), 4);
}

TEST(BadRowsTest, OverlongRowIsAnError) {
  auto options = ReadOptions::Defaults();
  options.block_size = 4;
  options.max_row_bytes = 16;
  auto batch = ReadOne("a\n\"" + std::string(100, 'x') + "\"\n", options);
  ASSERT_FALSE(batch.ok());
  EXPECT_NE(batch.status().message().find("max_row_bytes"), std::string::npos);
}

}  // namespace
}  // namespace recflow::csv
