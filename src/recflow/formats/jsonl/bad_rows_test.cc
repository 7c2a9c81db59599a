// Tests for bad JSON Lines records: error context (file, line, offset, record, field) and the skip policy.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "recflow/formats/jsonl/jsonl_reader.h"
#include "recflow/formats/jsonl/test_util_internal.h"

namespace recflow::jsonl {
namespace {

using testing::ReadBatches;
using testing::ReadOne;

TEST(JsonlBadRowsTest, InvalidJsonNamesLineAndOffset) {
  const std::string text = "\xEF\xBB\xBF{\"a\": 1}\r\n\r\n{\"a\": 2,}\r\n";
  for (const int64_t block_size : {int64_t{1} << 20, int64_t{1}, int64_t{5}}) {
    auto options = ReadOptions::Defaults();
    options.block_size = block_size;
    auto batch = ReadOne(text, options);
    ASSERT_FALSE(batch.ok());
    const Status& st = batch.status();
    EXPECT_EQ(st.code(), StatusCode::kDataError);
    EXPECT_EQ(st.context().file, "test.jsonl");
    EXPECT_EQ(st.context().offset, static_cast<int64_t>(text.find("{\"a\": 2")));
    EXPECT_EQ(st.context().record, 1);
    EXPECT_NE(st.message().find("line 3: invalid JSON"), std::string::npos) << st.ToString();
  }
}

TEST(JsonlBadRowsTest, NotAnObject) {
  auto batch = ReadOne("{\"a\": 1}\n[1, 2]\n");
  ASSERT_FALSE(batch.ok());
  EXPECT_NE(batch.status().message().find("line 2: the record is not a JSON object"), std::string::npos)
      << batch.status().ToString();
  EXPECT_EQ(batch.status().context().offset, 9);
}

TEST(JsonlBadRowsTest, TwoValuesOnOneLine) {
  auto batch = ReadOne("{\"a\": 1} {\"a\": 2}\n");
  ASSERT_FALSE(batch.ok());
  EXPECT_NE(batch.status().message().find("invalid JSON"), std::string::npos) << batch.status().ToString();
}

TEST(JsonlBadRowsTest, ValueNotFittingTheSchemaNamesTheField) {
  auto options = ReadOptions::Defaults();
  options.schema = Schema::Make({Field::Make("p", struct_({Field::Make("xs", list(int64()))}))});
  const std::string text = "{\"p\": {\"xs\": [1]}}\n{\"p\": {\"xs\": [2, \"three\"]}}\n";
  auto batch = ReadOne(text, options);
  ASSERT_FALSE(batch.ok());
  const Status& st = batch.status();
  EXPECT_EQ(st.context().field, "p.xs[]");
  EXPECT_EQ(st.context().offset, static_cast<int64_t>(text.find("{\"p\": {\"xs\": [2")));
  EXPECT_EQ(st.context().record, 1);
  EXPECT_NE(st.message().find("line 2: field 'p.xs[]': expected int64, found a string"), std::string::npos)
      << st.ToString();
}

TEST(JsonlBadRowsTest, NullInNonNullableField) {
  auto options = ReadOptions::Defaults();
  options.schema = Schema::Make({Field::Make("id", int64(), false)});
  auto null_value = ReadOne("{\"id\": null}\n", options);
  ASSERT_FALSE(null_value.ok());
  EXPECT_EQ(null_value.status().context().field, "id");
  auto missing = ReadOne("{\"other\": 1}\n", options);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("missing"), std::string::npos) << missing.status().ToString();
}

TEST(JsonlBadRowsTest, TooDeep) {
  auto options = ReadOptions::Defaults();
  options.max_depth = 3;
  EXPECT_TRUE(ReadOne("{\"a\": {\"b\": [1]}}\n", options).ok());
  auto batch = ReadOne("{\"a\": {\"b\": [[1]]}}\n", options);
  ASSERT_FALSE(batch.ok());
  EXPECT_NE(batch.status().message().find("deeper than max_depth"), std::string::npos) << batch.status().ToString();
  options.schema = Schema::Make({Field::Make("a", struct_({Field::Make("b", list(list(int64())))}))});
  EXPECT_EQ(ReadOne("{}\n", options).status().code(), StatusCode::kInvalidArgument);
}

TEST(JsonlBadRowsTest, SkipCountsAndReportsInOrder) {
  auto options = ReadOptions::Defaults();
  options.bad_rows = formats::BadRowsMode::kSkip;
  options.batch_rows = 2;
  std::vector<std::string> texts;
  std::vector<int64_t> lines;
  std::vector<int64_t> records;
  options.on_bad_row = [&](const formats::BadRow& row) {
    texts.emplace_back(row.text);
    lines.push_back(row.line);
    records.push_back(row.error.context().record);
  };
  const std::string text = "{\"a\": 1}\n{\"a\": \"x\"}\n\n{\"a\": 2}\r\nnope\r\n{\"a\": 3}\n{\"a\": 4}";
  auto reader = JsonlReader::FromBuffer(Buffer::FromString(text), "t", [&] {
    auto o = options;
    o.inference_rows = 1;
    return o;
  }());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  int64_t rows = 0;
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (!*batch) break;
    ASSERT_TRUE((*batch)->ValidateFull().ok());
    rows += (*batch)->num_rows();
  }
  EXPECT_EQ(rows, 4);
  EXPECT_EQ((*reader)->bad_rows(), 2);
  EXPECT_EQ(texts, (std::vector<std::string>{"{\"a\": \"x\"}", "nope"}));
  EXPECT_EQ(lines, (std::vector<int64_t>{2, 5}));
  EXPECT_EQ(records, (std::vector<int64_t>{1, 3}));
}

TEST(JsonlBadRowsTest, ErrorIsSticky) {
  auto reader = JsonlReader::FromBuffer(Buffer::FromString("{\"a\": 1}\n{\n"), "t", ReadOptions::Defaults());
  ASSERT_TRUE(reader.ok());
  auto first = (*reader)->Next();
  ASSERT_FALSE(first.ok());
  auto again = (*reader)->Next();
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().ToString(), first.status().ToString());
}

TEST(JsonlBadRowsTest, InvalidOptions) {
  auto options = ReadOptions::Defaults();
  options.batch_rows = 0;
  EXPECT_EQ(ReadBatches("{}", options).status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace recflow::jsonl
