// Tests for typed partition values: the writer's text of every type read back, constant columns, refusals.
#include "recflow/dataset/partition_values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/record_batch.h"
#include "recflow/columnar/validate.h"
#include "recflow/dataset/partition_path.h"
#include "recflow/dataset/partition_rows.h"

namespace recflow::dataset {
namespace {

/// A one-row column of `type` holding `value`.
template <typename T>
std::shared_ptr<ArrayData> OneValue(DataTypePtr type, T value) {
  NumericBuilder<T> builder(std::move(type));
  EXPECT_TRUE(builder.Append(value).ok());
  return *builder.Finish();
}

TEST(PartitionValuesTest, DecimalIntegersOfAnyLength) {
  for (std::string_view yes : {"0", "+7", "-007", "123456789012345678901234567890"}) EXPECT_TRUE(IsDecimalInteger(yes)) << yes;
  for (std::string_view no : {"", "+", "-", "1.0", "1e3", " 1", "0x10", "+-1"}) EXPECT_FALSE(IsDecimalInteger(no)) << no;
  EXPECT_EQ(ParseDecimalInt64("+7"), 7);
  EXPECT_EQ(ParseDecimalInt64("-007"), -7);
  EXPECT_EQ(ParseDecimalInt64("123456789012345678901234567890"), std::nullopt);
}

TEST(PartitionValuesTest, WhatTheWriterPutsInADirectoryReadsBackAsTheSameValueOfTheSameType) {
  BooleanBuilder flags;
  ASSERT_TRUE(flags.Append(true).ok());
  BinaryBuilder texts(utf8());
  ASSERT_TRUE(texts.Append("+007").ok());
  const std::vector<std::pair<FieldPtr, std::shared_ptr<ArrayData>>> columns = {
      {Field::Make("b", boolean()), *flags.Finish()},
      {Field::Make("i8", int8()), OneValue<int8_t>(int8(), -128)},
      {Field::Make("i32", int32()), OneValue<int32_t>(int32(), 2147483647)},
      {Field::Make("u64", uint64()), OneValue<uint64_t>(uint64(), std::numeric_limits<uint64_t>::max())},
      {Field::Make("f32", float32()), OneValue<float>(float32(), 0.1f)},
      {Field::Make("f64", float64()), OneValue<double>(float64(), -std::numeric_limits<double>::infinity())},
      {Field::Make("nan", float64()), OneValue<double>(float64(), std::nan(""))},
      {Field::Make("s", utf8()), *texts.Finish()},
      {Field::Make("data", int64()), OneValue<int64_t>(int64(), 0)}};
  std::vector<FieldPtr> fields;
  std::vector<std::shared_ptr<ArrayData>> arrays;
  std::vector<std::string> names;
  for (const auto& [field, array] : columns) {
    fields.push_back(field);
    arrays.push_back(array);
    if (field->name() != "data") names.push_back(field->name());
  }
  const auto schema = Schema::Make(fields);
  auto batch = RecordBatch::Make(schema, 1, arrays);
  ASSERT_TRUE(batch.ok());
  auto indices = ResolvePartitionColumns(*schema, names);
  ASSERT_TRUE(indices.ok()) << indices.status().ToString();
  auto groups = GroupRowsByPartition(**batch, *indices);
  ASSERT_TRUE(groups.ok() && groups->size() == 1u);
  auto levels = ParsePartitionPath((*groups)[0].dir);
  ASSERT_TRUE(levels.ok()) << levels.status().ToString();
  ASSERT_EQ(levels->size(), names.size());
  std::vector<PartitionValue> values;
  std::vector<FieldPtr> partition_fields(fields.begin(), fields.end() - 1);
  for (size_t c = 0; c < names.size(); ++c) {
    auto value = ParsePartitionValue(*(*levels)[c].value, *fields[c]->type());
    ASSERT_TRUE(value.ok()) << (*groups)[0].dir << ": " << value.status().ToString();
    values.push_back(*value);
  }
  auto back = MakePartitionColumns(*Schema::Make(partition_fields), values, 1);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  for (size_t c = 0; c < names.size(); ++c) {
    const ArrayData& got = *(*back)[c];
    EXPECT_TRUE(got.type->Equals(*fields[c]->type())) << names[c];
    if (names[c] == "nan") {
      EXPECT_TRUE(std::isnan(got.GetValues<double>(1)[0]));
    } else if (names[c] == "s") {
      const auto* data = reinterpret_cast<const char*>(got.buffers[2]->data());
      EXPECT_EQ(std::string(data, static_cast<size_t>(got.GetValues<int32_t>(1)[1])), "+007");
    } else if (names[c] == "b") {
      EXPECT_EQ(got.buffers[1]->data()[0] & 1, 1);
    } else {
      const size_t width = static_cast<size_t>(got.type->bit_width() / 8);
      EXPECT_EQ(std::memcmp(got.buffers[1]->data(), arrays[c]->buffers[1]->data(), width), 0) << names[c];
    }
  }
}

TEST(PartitionValuesTest, TextThatIsNotAValueOfTheTypeIsADataError) {
  const std::vector<std::pair<std::string, DataTypePtr>> bad = {
      {"128", int8()},   {"-1", uint8()},     {"1.0", int64()}, {"TRUE", boolean()}, {"1", boolean()},
      {"1e39", float32()}, {"0x10", float64()}, {" 1", int32()}, {"", int64()},      {"x", binary()}};
  for (const auto& [text, type] : bad) {
    auto value = ParsePartitionValue(text, *type);
    ASSERT_FALSE(value.ok()) << text << " as " << type->ToString();
    EXPECT_EQ(value.status().code(), StatusCode::kDataError);
    EXPECT_NE(value.status().message().find("'" + text + "'"), std::string::npos) << value.status().ToString();
  }
  EXPECT_EQ(*ParsePartitionValue("Infinity", *float32()), PartitionValue(std::numeric_limits<double>::infinity()));
  EXPECT_EQ(*ParsePartitionValue("+5", *uint16()), PartitionValue(uint64_t{5}));
}

TEST(PartitionValuesTest, BuildsConstantColumns) {
  const auto schema = Schema::Make({Field::Make("year", int64(), false), Field::Make("score", float64(), true),
                                    Field::Make("city", utf8(), true), Field::Make("none", utf8(), true)});
  auto columns = MakePartitionColumns(*schema, {int64_t{2024}, 2.5, std::string("x/y"), std::monostate()}, 3);
  ASSERT_TRUE(columns.ok()) << columns.status().ToString();
  ASSERT_EQ(columns->size(), 4u);
  for (int c = 0; c < 4; ++c) {
    const ArrayData& column = *(*columns)[static_cast<size_t>(c)];
    EXPECT_TRUE(column.type->Equals(*schema->field(c)->type()));
    EXPECT_EQ(column.length, 3);
    EXPECT_TRUE(ValidateFull(column).ok()) << ValidateFull(column).ToString();
  }
  const ArrayData& year = *(*columns)[0];
  const ArrayData& score = *(*columns)[1];
  const ArrayData& city = *(*columns)[2];
  const ArrayData& none = *(*columns)[3];
  for (int64_t row = 0; row < 3; ++row) {
    EXPECT_EQ(year.GetValues<int64_t>(1)[row], 2024);
    EXPECT_EQ(score.GetValues<double>(1)[row], 2.5);
    const int32_t* offsets = city.GetValues<int32_t>(1);
    const auto* data = reinterpret_cast<const char*>(city.buffers[2]->data());
    EXPECT_EQ(std::string(data + offsets[row], static_cast<size_t>(offsets[row + 1] - offsets[row])), "x/y");
  }
  EXPECT_EQ(year.null_count, 0);
  EXPECT_EQ(city.null_count, 0);
  EXPECT_EQ(none.null_count, 3);

  auto empty = MakePartitionColumns(*schema, {int64_t{1}, 0.0, std::string(), std::monostate()}, 0);
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_EQ((*empty)[0]->length, 0);
}

TEST(PartitionValuesTest, MismatchesAreRefused) {
  const auto schema = Schema::Make({Field::Make("year", int64(), false)});
  auto wrong_type = MakePartitionColumns(*schema, {std::string("2024")}, 1);
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_EQ(wrong_type.status().code(), StatusCode::kTypeError);
  EXPECT_EQ(wrong_type.status().context().field, "year");
  auto null_in_non_nullable = MakePartitionColumns(*schema, {std::monostate()}, 1);
  EXPECT_EQ(null_in_non_nullable.status().code(), StatusCode::kTypeError);
  EXPECT_EQ(MakePartitionColumns(*schema, {}, 1).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(MakePartitionColumns(*schema, {int64_t{1}}, -1).status().code(), StatusCode::kInvalidArgument);
  const auto bool_schema = Schema::Make({Field::Make("flag", boolean())});
  EXPECT_EQ(MakePartitionColumns(*bool_schema, {int64_t{1}}, 1).status().code(), StatusCode::kTypeError);
  const auto text_schema = Schema::Make({Field::Make("t", utf8())});
  EXPECT_EQ(MakePartitionColumns(*text_schema, {std::string(1000, 'x')}, int64_t{1} << 40).status().code(),
            StatusCode::kDataError);
}

}  // namespace
}  // namespace recflow::dataset
