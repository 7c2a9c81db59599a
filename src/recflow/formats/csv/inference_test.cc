// Tests for CSV type inference: each type, promotion, nullability, sample size, timestamps.
#include "recflow/formats/csv/inference.h"

#include <gtest/gtest.h>

#include <cmath>

#include "recflow/formats/csv/test_util_internal.h"

namespace recflow::csv {
namespace {

using testing::ReadOne;

// The inferred field of the first column of "h,k\n" + "value,0\n"... (a second column so that
// an empty value is not an empty line).
FieldPtr Infer(std::initializer_list<const char*> values, ReadOptions options = ReadOptions::Defaults()) {
  std::string text = "h,k\n";
  for (const char* v : values) text += std::string(v) + ",0\n";
  auto batch = ReadOne(text, options);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  return batch.ok() ? (*batch)->schema()->field(0) : nullptr;
}

TEST(InferenceTest, Types) {
  EXPECT_EQ(Infer({"true", "FALSE"})->type()->id(), TypeId::kBool);
  EXPECT_EQ(Infer({"1", "-2", "+3"})->type()->id(), TypeId::kInt64);
  EXPECT_EQ(Infer({"1.5", "inf", "-NaN", "1e3"})->type()->id(), TypeId::kFloat64);
  EXPECT_EQ(Infer({"x", "y"})->type()->id(), TypeId::kUtf8);
  EXPECT_EQ(Infer({"\xff"})->type()->id(), TypeId::kBinary);
  EXPECT_EQ(Infer({"\"1\""})->type()->id(), TypeId::kInt64);  // quoting does not make a string
}

TEST(InferenceTest, Promotion) {
  EXPECT_EQ(Infer({"1", "2.5"})->type()->id(), TypeId::kFloat64);
  EXPECT_EQ(Infer({"9223372036854775808", "1"})->type()->id(), TypeId::kFloat64);
  EXPECT_EQ(Infer({"1", "true"})->type()->id(), TypeId::kUtf8);
  EXPECT_EQ(Infer({"1.5", "x"})->type()->id(), TypeId::kUtf8);
  EXPECT_EQ(Infer({"2020-01-01", "7"})->type()->id(), TypeId::kUtf8);
  EXPECT_EQ(Infer({"2020-01-01", "2020-01-02T10:00:00Z"})->type()->id(), TypeId::kInt64);
}

TEST(InferenceTest, Timestamps) {
  auto batch = ReadOne("t\n2020-01-01\n2020-01-01 00:00:01.5\n2019-12-31T23:00:00-01:00\n");
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  const auto& field = (*batch)->schema()->field(0);
  EXPECT_EQ(field->type()->id(), TypeId::kInt64);
  EXPECT_TRUE(IsTimestampField(*field));
  Int64Array t((*batch)->column_data(0));
  EXPECT_EQ(t.Value(0), 1577836800000000);
  EXPECT_EQ(t.Value(1), 1577836801500000);
  EXPECT_EQ(t.Value(2), 1577836800000000);
}

TEST(InferenceTest, Nullability) {
  EXPECT_FALSE(Infer({"1", "2"})->nullable());
  EXPECT_TRUE(Infer({"1", ""})->nullable());
  EXPECT_EQ(Infer({"1", ""})->type()->id(), TypeId::kInt64);
  // A quoted empty string is a value: a string column stays non-nullable ...
  EXPECT_FALSE(Infer({"x", "\"\""})->nullable());
  // ... but a typed column reads it as null.
  EXPECT_TRUE(Infer({"1", "\"\""})->nullable());
  // Only nulls: a nullable utf8 column.
  auto only_nulls = Infer({"", ""});
  EXPECT_EQ(only_nulls->type()->id(), TypeId::kUtf8);
  EXPECT_TRUE(only_nulls->nullable());
  auto options = ReadOptions::Defaults();
  options.infer_nullability = false;
  EXPECT_TRUE(Infer({"1", "2"}, options)->nullable());
}

TEST(InferenceTest, NullValuesDuringInference) {
  auto options = ReadOptions::Defaults();
  options.null_values = {"NA", ""};
  auto batch = ReadOne("a\n1\nNA\n3\n", options);
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ((*batch)->schema()->field(0)->type()->id(), TypeId::kInt64);
  EXPECT_TRUE(Int64Array((*batch)->column_data(0)).IsNull(1));
}

TEST(InferenceTest, OnlyTheSampleDecides) {
  auto options = ReadOptions::Defaults();
  options.inference_rows = 2;
  auto reader = CsvReader::FromBuffer(Buffer::FromString("a\n1\n2\nx\n"), "s.csv", options);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->schema()->field(0)->type()->id(), TypeId::kInt64);
  auto batch = (*reader)->Next();
  ASSERT_FALSE(batch.ok());
  EXPECT_NE(batch.status().message().find("line 4"), std::string::npos) << batch.status().ToString();
}

TEST(InferenceTest, SampleSkipsBadRows) {
  auto options = ReadOptions::Defaults();
  options.bad_rows = formats::BadRowsMode::kSkip;
  auto batch = ReadOne("a,b\n1,2\nx,y,z\n3,4\n", options);
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ((*batch)->schema()->field(0)->type()->id(), TypeId::kInt64);
  EXPECT_EQ((*batch)->num_rows(), 2);
}

TEST(InferenceTest, ColumnInferenceDirectly) {
  ColumnInference inference;
  inference.Observe("1");
  inference.ObserveNull();
  auto field = inference.MakeField("n", true);
  EXPECT_EQ(field->ToString(), "n: int64");
  EXPECT_TRUE(field->nullable());
}

}  // namespace
}  // namespace recflow::csv
