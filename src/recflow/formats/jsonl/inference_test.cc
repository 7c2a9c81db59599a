// Tests for JSON Lines type inference: the type lattice, key order, nullability and the sample size.
#include <gtest/gtest.h>

#include <string>

#include "recflow/formats/jsonl/jsonl_reader.h"
#include "recflow/formats/jsonl/test_util_internal.h"

namespace recflow::jsonl {
namespace {

using testing::InferredSchema;
using testing::ReadOne;
using testing::Str;

std::string Inferred(const std::string& text, ReadOptions options = ReadOptions::Defaults()) {
  auto schema = InferredSchema(text, options);
  return schema.ok() ? (*schema)->ToString() : schema.status().ToString();
}

TEST(JsonlInferenceTest, KeysInOrderOfFirstAppearance) {
  EXPECT_EQ(Inferred("{\"b\": 1, \"a\": 1}\n{\"c\": 1, \"a\": 2}\n"), "b: int64\na: int64 not null\nc: int64");
}

TEST(JsonlInferenceTest, IntegersAndFloatsWidenToFloat64) {
  EXPECT_EQ(Inferred("{\"x\": 1}\n{\"x\": 1.5}\n"), "x: float64 not null");
  EXPECT_EQ(Inferred("{\"x\": 1e3}\n"), "x: float64 not null");
}

TEST(JsonlInferenceTest, NonFiniteSpellingsBesideNumbersAreFloat64) {
  EXPECT_EQ(Inferred("{\"x\": 1}\n{\"x\": \"NaN\"}\n{\"x\": \"-Infinity\"}\n"), "x: float64 not null");
  EXPECT_EQ(Inferred("{\"x\": \"Infinity\"}\n{\"x\": 2.5}\n"), "x: float64 not null");
  // Alone, or beside other strings or kinds, they are text.
  EXPECT_EQ(Inferred("{\"x\": \"NaN\"}\n"), "x: utf8 not null");
  EXPECT_EQ(Inferred("{\"x\": \"NaN\"}\n{\"x\": \"nan\"}\n{\"x\": 1}\n"), "x: utf8 not null");
  EXPECT_EQ(Inferred("{\"x\": \"Infinity\"}\n{\"x\": true}\n"), "x: utf8 not null");
  EXPECT_EQ(Inferred("{\"x\": \"2024-05-06\"}\n{\"x\": \"NaN\"}\n"), "x: utf8 not null");
}

TEST(JsonlInferenceTest, IntegersBeyondInt64AreFloat64) {
  auto batch = ReadOne("{\"x\": 9223372036854775807}\n{\"x\": 18446744073709551615}\n");
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ((*batch)->schema()->ToString(), "x: float64 not null");
  EXPECT_EQ(Float64Array((*batch)->column_data(0)).Value(1), 18446744073709551615.0);
  // Beyond uint64 simdjson refuses an integer literal: the record is bad (1e20 is fine).
  auto huge = ReadOne("{\"x\": 100000000000000000000}\n");
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.status().message().find("line 1: invalid JSON"), std::string::npos) << huge.status().ToString();
}

TEST(JsonlInferenceTest, ConflictingKindsBecomeJsonText) {
  auto batch = ReadOne("{\"x\": 1}\n{\"x\": \"two\"}\n{\"x\": [3]}\n{\"x\": {\"y\": true}}\n{\"x\": null}\n");
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ((*batch)->schema()->ToString(), "x: utf8");
  const auto& column = (*batch)->column_data(0);
  EXPECT_EQ(Str(column, 0), "1");
  EXPECT_EQ(Str(column, 1), "two");
  EXPECT_EQ(Str(column, 2), "[3]");
  EXPECT_EQ(Str(column, 3), "{\"y\":true}");
  EXPECT_EQ(Str(column, 4), "<null>");
}

TEST(JsonlInferenceTest, TimestampsLikeCsv) {
  EXPECT_EQ(Inferred("{\"t\": \"2024-05-06\"}\n{\"t\": \"2024-05-06 07:08:09.5+02:00\"}\n"), "t: int64 not null");
  EXPECT_EQ(Inferred("{\"t\": \"2024-05-06\"}\n{\"t\": \"yesterday\"}\n"), "t: utf8 not null");
  auto options = ReadOptions::Defaults();
  options.infer_timestamps = false;
  EXPECT_EQ(Inferred("{\"t\": \"2024-05-06\"}\n", options), "t: utf8 not null");
}

TEST(JsonlInferenceTest, OnlyNullsAndEmptyListsAreUtf8) {
  EXPECT_EQ(Inferred("{\"n\": null, \"l\": []}\n"), "n: utf8\nl: list<utf8> not null");
}

TEST(JsonlInferenceTest, NullabilityCanBeTurnedOff) {
  auto options = ReadOptions::Defaults();
  options.infer_nullability = false;
  EXPECT_EQ(Inferred("{\"a\": 1}\n", options), "a: int64");
}

TEST(JsonlInferenceTest, OnlyTheSampleIsInferred) {
  auto options = ReadOptions::Defaults();
  options.inference_rows = 2;
  const std::string text = "{\"a\": 1}\n{\"a\": 2}\n{\"a\": \"x\", \"late\": 1}\n";
  EXPECT_EQ(Inferred(text, options), "a: int64");  // nullable: the input goes on past the sample
  auto batch = ReadOne(text, options);
  ASSERT_FALSE(batch.ok());
  EXPECT_EQ(batch.status().context().field, "a");
  EXPECT_NE(batch.status().message().find("line 3"), std::string::npos) << batch.status().ToString();
}

TEST(JsonlInferenceTest, BadRecordsInTheSampleAreIgnored) {
  EXPECT_EQ(Inferred("[1]\n{\"a\": 1}\nnot json\n"), "a: int64 not null");
}

}  // namespace
}  // namespace recflow::jsonl
