// Tests of JsonObjectDecoder: payloads one at a time into rows, refusals naming the field, nothing appended on error.
#include "recflow/formats/jsonl/json_object_decoder.h"

#include <gtest/gtest.h>

#include "recflow/columnar/element_access.h"

namespace recflow::jsonl {
namespace {

SchemaPtr KeyValue() { return Schema::Make({Field::Make("key", utf8()), Field::Make("value", int64())}); }

TEST(JsonObjectDecoderTest, ObjectsBecomeRowsAsJsonLinesReadsThem) {
  auto decoder = JsonObjectDecoder::Make(KeyValue());
  ASSERT_TRUE(decoder.ok()) << decoder.status().ToString();
  // Exactly the payload's bytes: no terminator, no padding after them.
  const std::string payloads[] = {R"({"key": "a", "value": 1})", R"({"value": 2, "other": [1, 2]})", "{}"};
  for (const std::string& p : payloads) ASSERT_TRUE((*decoder)->Append(std::string_view(p.data(), p.size())).ok()) << p;
  auto batch = (*decoder)->Finish();
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_EQ((*batch)->num_rows(), 3);
  EXPECT_EQ(BinaryValue(*(*batch)->column_data(0), 0), "a");
  EXPECT_FALSE(IsValidAt(*(*batch)->column_data(0), 1));  // missing: null
  EXPECT_EQ(IntegerValue(*(*batch)->column_data(1), 1), 2);
  EXPECT_FALSE(IsValidAt(*(*batch)->column_data(1), 2));
  auto empty = (*decoder)->Finish();  // the decoder starts over
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ((*empty)->num_rows(), 0);
}

TEST(JsonObjectDecoderTest, BadPayloadsAreDataErrorsAndAppendNothing) {
  auto decoder = JsonObjectDecoder::Make(KeyValue(), /*max_depth=*/3);
  ASSERT_TRUE(decoder.ok());
  struct Case {
    std::string payload;
    std::string says;
  };
  for (const Case& c : {Case{"{not json", "invalid JSON"}, Case{"[1, 2]", "not a JSON object"}, Case{"", "invalid JSON"},
                        Case{R"({"key": "a", "value": "three"})", "value"},
                        Case{R"({"x": [[[[1]]]]})", "deeper than max_depth"}}) {
    const Status st = (*decoder)->Append(c.payload);
    ASSERT_EQ(st.code(), StatusCode::kDataError) << c.payload;
    EXPECT_NE(st.ToString().find(c.says), std::string::npos) << c.payload << ": " << st.ToString();
  }
  ASSERT_TRUE((*decoder)->Append(R"({"key": "b", "value": 7})").ok());
  auto batch = (*decoder)->Finish();
  ASSERT_TRUE(batch.ok());
  ASSERT_EQ((*batch)->num_rows(), 1);
  EXPECT_EQ(IntegerValue(*(*batch)->column_data(1), 0), 7);
}

}  // namespace
}  // namespace recflow::jsonl
