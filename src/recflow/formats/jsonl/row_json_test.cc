// Tests for rendering RecordBatch rows as JSON.
#include "recflow/formats/jsonl/row_json.h"

#include <gtest/gtest.h>

#include <vector>

#include "recflow/columnar/builder.h"
#include "recflow/formats/example/record_type.h"
#include "recflow/testing/sample_arrays.h"

namespace recflow::jsonl {
namespace {

std::shared_ptr<ArrayData> Ints() {
  Int64Builder b;
  EXPECT_TRUE(b.Append(-7).ok());
  EXPECT_TRUE(b.AppendNull().ok());
  return *b.Finish();
}

std::shared_ptr<ArrayData> FloatLists() {
  ListBuilder b(list(float32()), std::make_unique<Float32Builder>());
  auto* values = static_cast<Float32Builder*>(b.value_builder());
  EXPECT_TRUE(b.Append().ok());
  EXPECT_TRUE(values->Append(0.1f).ok());
  EXPECT_TRUE(values->Append(2.0f).ok());
  EXPECT_TRUE(b.Append().ok());  // empty list
  return *b.Finish();
}

std::shared_ptr<ArrayData> Bytes() {
  BinaryBuilder b;
  EXPECT_TRUE(b.Append("caf\xc3\xa9").ok());
  EXPECT_TRUE(b.Append(std::string_view("\xff\x00", 2)).ok());
  return *b.Finish();
}

std::string RenderRow(const RecordBatch& batch, int64_t row, bool sequence_example) {
  std::string out;
  JsonWriter writer(&out);
  const Status st = RowJsonRenderer(*batch.schema(), sequence_example).Render(batch, row, &writer);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

TEST(RowJsonTest, RendersScalarsListsNullsAndBytes) {
  auto schema = Schema::Make({Field::Make("i", int64()), Field::Make("f", list(float32())),
                              Field::Make("b", binary()), Field::Make("n", null())});
  NullBuilder nulls;
  ASSERT_TRUE(nulls.AppendNulls(2).ok());
  auto batch = RecordBatch::Make(schema, 2, {Ints(), FloatLists(), Bytes(), *nulls.Finish()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(RenderRow(**batch, 0, false), "{\"i\":-7,\"f\":[0.1,2.0],\"b\":\"caf\xc3\xa9\",\"n\":null}");
  EXPECT_EQ(RenderRow(**batch, 1, false), R"({"i":null,"f":[],"b":{"$base64":"/wA="},"n":null})");
  // A slice renders the same rows.
  EXPECT_EQ(RenderRow(*(*batch)->Slice(1, 1), 0, false), RenderRow(**batch, 1, false));
}

TEST(RowJsonTest, GroupsSequenceExampleColumns) {
  auto kind = [](std::string_view value) {
    auto metadata = std::make_shared<KeyValueMetadata>();
    metadata->Set(std::string(example::kKindMetadataKey), std::string(value));
    return metadata;
  };
  ListBuilder steps(list(list(float32())),
                    std::make_unique<ListBuilder>(list(float32()), std::make_unique<Float32Builder>()));
  auto* inner = static_cast<ListBuilder*>(steps.value_builder());
  auto* values = static_cast<Float32Builder*>(inner->value_builder());
  for (int row = 0; row < 2; ++row) {
    ASSERT_TRUE(steps.Append().ok());
    ASSERT_TRUE(inner->Append().ok());
    ASSERT_TRUE(values->Append(1.5f).ok());
    ASSERT_TRUE(inner->Append().ok());
  }
  auto schema = Schema::Make({Field::Make("steps", list(list(float32())), true, kind(example::kKindFeatureList)),
                              Field::Make("id", int64(), true, kind(example::kKindContext))});
  auto batch = RecordBatch::Make(schema, 2, {*steps.Finish(), Ints()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(RenderRow(**batch, 0, true), R"({"context":{"id":-7},"feature_lists":{"steps":[[1.5],[]]}})");
  EXPECT_EQ(RenderRow(**batch, 0, false), R"({"steps":[[1.5],[]],"id":-7})");
}

TEST(RowJsonTest, RendersStructsAndBooleans) {
  BooleanBuilder flags;
  ASSERT_TRUE(flags.Append(true).ok());
  ASSERT_TRUE(flags.Append(false).ok());
  auto type = struct_({Field::Make("flag", boolean()), Field::Make("x", float64())});
  std::vector<std::unique_ptr<ArrayBuilder>> children;
  children.push_back(std::make_unique<BooleanBuilder>());
  children.push_back(std::make_unique<Float64Builder>());
  StructBuilder b(type, std::move(children));
  for (int row = 0; row < 2; ++row) {
    ASSERT_TRUE(b.Append().ok());
    ASSERT_TRUE(static_cast<BooleanBuilder*>(b.field_builder(0))->Append(row == 0).ok());
    ASSERT_TRUE(static_cast<Float64Builder*>(b.field_builder(1))->Append(0.1 * row).ok());
  }
  auto batch = RecordBatch::Make(Schema::Make({Field::Make("s", type)}), 2, {*b.Finish()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(RenderRow(**batch, 1, false), R"({"s":{"flag":false,"x":0.1}})");
  EXPECT_EQ(RenderRow(*(*batch)->Slice(1, 1), 0, false), R"({"s":{"flag":false,"x":0.1}})");
}

FieldPtr TimestampField(std::string name) {
  auto metadata = std::make_shared<KeyValueMetadata>();
  metadata->Set(std::string(kLogicalTypeKey), std::string(kTimestampLogicalType));
  return Field::Make(std::move(name), int64(), true, std::move(metadata));
}

TEST(RowJsonTest, RendersTimestampsAsIsoText) {
  Int64Builder top;
  ASSERT_TRUE(top.Append(1706704496123456).ok());  // 2024-01-31T12:34:56.123456Z
  ASSERT_TRUE(top.AppendNull().ok());
  // The same logical type as a struct member and as list items.
  auto member = TimestampField("t");
  StructBuilder s(struct_({member}), [] {
    std::vector<std::unique_ptr<ArrayBuilder>> children;
    children.push_back(std::make_unique<Int64Builder>());
    return children;
  }());
  ListBuilder l(list(TimestampField("item")), std::make_unique<Int64Builder>());
  for (int64_t micros : {int64_t{-1}, int64_t{0}}) {
    ASSERT_TRUE(s.Append().ok());
    ASSERT_TRUE(static_cast<Int64Builder*>(s.field_builder(0))->Append(micros).ok());
    ASSERT_TRUE(l.Append().ok());
    ASSERT_TRUE(static_cast<Int64Builder*>(l.value_builder())->Append(micros).ok());
  }
  auto schema = Schema::Make({TimestampField("ts"), Field::Make("s", struct_({member})),
                              Field::Make("l", list(TimestampField("item")))});
  auto batch = RecordBatch::Make(schema, 2, {*top.Finish(), *s.Finish(), *l.Finish()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ(RenderRow(**batch, 0, false),
            R"({"ts":"2024-01-31T12:34:56.123456Z","s":{"t":"1969-12-31T23:59:59.999999Z"},)"
            R"("l":["1969-12-31T23:59:59.999999Z"]})");
  EXPECT_EQ(RenderRow(**batch, 1, false),
            R"({"ts":null,"s":{"t":"1970-01-01T00:00:00.000000Z"},"l":["1970-01-01T00:00:00.000000Z"]})");
}

TEST(RowJsonTest, TimestampOutsideFourDigitYearsIsATypeErrorNamingTheColumn) {
  Int64Builder b;
  ASSERT_TRUE(b.Append(INT64_MAX).ok());
  auto batch = RecordBatch::Make(Schema::Make({TimestampField("ts")}), 1, {*b.Finish()});
  ASSERT_TRUE(batch.ok());
  std::string out;
  JsonWriter writer(&out);
  const Status st = RowJsonRenderer(*(*batch)->schema(), false).Render(**batch, 0, &writer);
  EXPECT_EQ(st.code(), StatusCode::kTypeError);
  EXPECT_EQ(st.context().field, "ts");
}

using recflow::testing::BufferOf;

/// Element 0 of `data` rendered by WriteJsonValue.
std::string Json(const std::shared_ptr<ArrayData>& data, int64_t i = 0) {
  std::string out;
  JsonWriter writer(&out);
  const Status st = WriteJsonValue(Field("x", data->type, true, nullptr), *data, i, &writer);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return out;
}

TEST(RowJsonTest, ArrowTypes) {
  EXPECT_EQ(Json(ArrayData::Make(float16(), 1, {nullptr, BufferOf<uint16_t>({0x3C00})}, 0)), "1.0");
  EXPECT_EQ(Json(ArrayData::Make(date32(), 2, {nullptr, BufferOf<int32_t>({0, 18000})}, 0), 1), R"("2019-04-14")");
  EXPECT_EQ(Json(ArrayData::Make(date64(), 1, {nullptr, BufferOf<int64_t>({-86'400'000})}, 0)), R"("1969-12-31")");
  EXPECT_EQ(Json(ArrayData::Make(time32(TimeUnit::kMilli), 1, {nullptr, BufferOf<int32_t>({3723001})}, 0)),
            R"("01:02:03.001")");
  EXPECT_EQ(Json(ArrayData::Make(timestamp(TimeUnit::kNano, "UTC"), 1, {nullptr, BufferOf<int64_t>({-1})}, 0)),
            R"("1969-12-31T23:59:59.999999999Z")");
  EXPECT_EQ(Json(ArrayData::Make(timestamp(TimeUnit::kSecond), 1, {nullptr, BufferOf<int64_t>({0})}, 0)),
            R"("1970-01-01T00:00:00")");
  EXPECT_EQ(Json(ArrayData::Make(duration(TimeUnit::kMilli), 1, {nullptr, BufferOf<int64_t>({-5})}, 0)), "-5");
  EXPECT_EQ(Json(ArrayData::Make(decimal(7, 2), 1, {nullptr, BufferOf<int64_t>({-1250, -1})}, 0)), R"("-12.50")");
  EXPECT_EQ(Json(ArrayData::Make(interval(IntervalUnit::kDayTime), 1, {nullptr, BufferOf<int32_t>({3, -4})}, 0)),
            R"({"days":3,"milliseconds":-4})");
  EXPECT_EQ(Json(ArrayData::Make(interval(IntervalUnit::kMonthDayNano), 1, {nullptr, BufferOf<int32_t>({1, 2, 3, 0})}, 0)),
            R"({"months":1,"days":2,"nanoseconds":3})");
  EXPECT_EQ(Json(ArrayData::Make(large_utf8(), 1, {nullptr, BufferOf<int64_t>({0, 3}), Buffer::FromString("hé")}, 0)),
            "\"h\xc3\xa9\"");
  auto values = ArrayData::Make(int32(), 4, {nullptr, BufferOf<int32_t>({1, 2, 3, 4})}, 0);
  EXPECT_EQ(Json(ArrayData::Make(fixed_size_list(Field::Make("item", int32()), 2), 2, {nullptr}, 0, 0, {values}), 1),
            "[3,4]");
  auto keys = ArrayData::Make(utf8(), 2, {nullptr, BufferOf<int32_t>({0, 1, 2}), Buffer::FromString("ab")}, 0);
  const DataTypePtr map_type = map(Field::Make("key", utf8(), false), Field::Make("value", int32()));
  auto entries = ArrayData::Make(map_type->value_type(), 2, {nullptr}, 0, 0, {keys, values});
  EXPECT_EQ(Json(ArrayData::Make(map_type, 1, {nullptr, BufferOf<int32_t>({0, 2})}, 0, 0, {entries})),
            R"([{"key":"a","value":1},{"key":"b","value":2}])");
  auto dense = ArrayData::Make(union_(UnionMode::kDense, {Field::Make("i", int32()), Field::Make("s", utf8())}), 2,
                               {nullptr, BufferOf<int8_t>({1, 0}), BufferOf<int32_t>({1, 3})}, 0, 0, {values, keys});
  EXPECT_EQ(Json(dense, 0), R"("b")");
  EXPECT_EQ(Json(dense, 1), "4");
  auto dict = ArrayData::Make(dictionary(int8(), utf8()), 1, {nullptr, BufferOf<int8_t>({1})}, 0);
  dict->dictionary = keys;
  EXPECT_EQ(Json(dict), R"("b")");

  // Values beyond what a day or four-digit years hold print rather than fail.
  auto far = ArrayData::Make(date32(), 1, {nullptr, BufferOf<int32_t>({INT32_MAX})}, 0);
  EXPECT_EQ(Json(far), R"("+5881580-07-11")");
  auto whole_day = ArrayData::Make(time32(TimeUnit::kSecond), 1, {nullptr, BufferOf<int32_t>({86'400})}, 0);
  EXPECT_EQ(Json(whole_day), R"("24:00:00")");
}

}  // namespace
}  // namespace recflow::jsonl
