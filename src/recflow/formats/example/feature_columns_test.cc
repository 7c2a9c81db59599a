// Tests of FeatureColumns: every Arrow type's feature form, struct members as parent.member, and the columns tf.Example cannot hold named.
#include "recflow/formats/example/feature_columns.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "recflow/columnar/pretty_print.h"
#include "recflow/columnar/schema.h"
#include "recflow/testing/sample_arrays.h"

namespace recflow::example {
namespace {

using recflow::testing::BufferOf;
using recflow::testing::ValidityOf;

/// One column named `name` of `data`, as a batch.
std::shared_ptr<RecordBatch> Batch(const std::string& name, std::shared_ptr<ArrayData> data) {
  auto schema = Schema::Make({Field::Make(name, data->type)});
  const int64_t rows = data->length;
  return *RecordBatch::Make(std::move(schema), rows, {std::move(data)});
}

/// "name: type = values" of each feature column of `batch`.
std::vector<std::string> Features(const RecordBatch& batch, RecordType type = RecordType::kExample,
                                  FeatureOptions options = FeatureOptions::Defaults()) {
  auto plan = FeatureColumns::Make(batch.schema(), type, options);
  EXPECT_TRUE(plan.ok()) << plan.status().ToString();
  if (!plan.ok()) return {};
  auto converted = plan->Convert(batch);
  EXPECT_TRUE(converted.ok()) << converted.status().ToString();
  if (!converted.ok()) return {};
  EXPECT_TRUE((*converted)->ValidateFull().ok()) << (*converted)->ValidateFull().ToString();
  std::vector<std::string> out;
  for (int c = 0; c < (*converted)->num_columns(); ++c) {
    const Field& field = *(*converted)->schema()->field(c);
    out.push_back(field.name() + ": " + field.type()->ToString() + " = " + ArrayToString(*(*converted)->column_data(c)));
  }
  return out;
}

/// The error FeatureColumns::Make gives for `schema`.
Status PlanError(const SchemaPtr& schema, RecordType type = RecordType::kExample) {
  return FeatureColumns::Make(schema, type, FeatureOptions::Defaults()).status();
}

const auto kStrings = ArrayData::Make(utf8(), 3, {ValidityOf("101"), BufferOf<int32_t>({0, 3, 3, 7}),
                                                  Buffer::FromString("catbird")},
                                      1);

TEST(FeatureColumnsTest, NativeColumnsAreWrittenAsTheyAre) {
  auto schema = Schema::Make({Field::Make("a", int64()), Field::Make("b", list(utf8())),
                              Field::Make("c", list(list(float32())))});
  auto plan = FeatureColumns::Make(schema, RecordType::kSequenceExample, FeatureOptions::Defaults());
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_TRUE(plan->identity());
  EXPECT_EQ(plan->schema().get(), schema.get());
}

TEST(FeatureColumnsTest, ValuesOfArrowsOtherTypes) {
  // Dates, times, timestamps and durations: int64 in their own unit; intervals of months: int64.
  EXPECT_EQ(Features(*Batch("d", ArrayData::Make(date32(), 2, {ValidityOf("01"), BufferOf<int32_t>({7, -3})}, 1))),
            std::vector<std::string>{"d: int64 = [null, -3]"});
  EXPECT_EQ(Features(*Batch("t", ArrayData::Make(time32(TimeUnit::kSecond), 1, {nullptr, BufferOf<int32_t>({86400})}, 0))),
            std::vector<std::string>{"t: int64 = [86400]"});
  EXPECT_EQ(Features(*Batch("m", ArrayData::Make(interval(IntervalUnit::kYearMonth), 1, {nullptr, BufferOf<int32_t>({-14})},
                                                 0))),
            std::vector<std::string>{"m: int64 = [-14]"});
  // Half floats as floats; decimals as exact text, or floats when asked.
  EXPECT_EQ(Features(*Batch("h", ArrayData::Make(float16(), 2, {nullptr, BufferOf<uint16_t>({0x3C00, 0xC100})}, 0))),
            std::vector<std::string>{"h: float32 = [1, -2.5]"});
  auto decimals = ArrayData::Make(decimal(9, 2, 32), 2, {ValidityOf("10"), BufferOf<int32_t>({-1250, 0})}, 1);
  EXPECT_EQ(Features(*Batch("x", decimals)), std::vector<std::string>{R"(x: utf8 = ["-12.50", null])"});
  FeatureOptions floats;
  floats.decimals = DecimalFeatures::kFloat;
  EXPECT_EQ(Features(*Batch("x", decimals), RecordType::kExample, floats),
            std::vector<std::string>{"x: float64 = [-12.5, null]"});
  // Large, fixed-size and view binaries as bytes; a sliced view column from its offset.
  const auto views = ArrayData::Make(utf8_view(), 3,
                                     {ValidityOf("011"), recflow::testing::ViewsOf({{"?"}, {"short"}, {"twelve+ bytes long", 0, 0}}),
                                      Buffer::FromString("twelve+ bytes long")},
                                     1);
  EXPECT_EQ(Features(*Batch("v", views->Slice(1, 2))), std::vector<std::string>{R"(v: utf8 = ["short", "twelve+ bytes long"])"});
  EXPECT_EQ(Features(*Batch("f", ArrayData::Make(fixed_size_binary(2), 2, {nullptr, Buffer::FromString("abcd")}, 0))),
            std::vector<std::string>{R"(f: binary = ["ab", "cd"])"});
}

TEST(FeatureColumnsTest, DictionariesAndRunsAreTheirValues) {
  // Indices 2, null, 0, 2 into [cat, null, bird]: the nulls of the indices and of the values.
  auto dict = ArrayData::Make(dictionary(int8(), utf8()), 4, {ValidityOf("1011"), BufferOf<int8_t>({2, 0, 1, 2})}, 1);
  dict->dictionary = kStrings;
  EXPECT_EQ(Features(*Batch("d", dict)), std::vector<std::string>{R"(d: utf8 = ["bird", null, null, "bird"])"});
  auto empty_dictionary = ArrayData::Make(dictionary(int8(), date32()), 2, {ValidityOf("00"), BufferOf<int8_t>({0, 0})}, 2);
  empty_dictionary->dictionary = ArrayData::Make(date32(), 0, {nullptr, nullptr}, 0);
  EXPECT_EQ(Features(*Batch("e", empty_dictionary)), std::vector<std::string>{"e: int64 = [null, null]"});
  auto runs = ArrayData::Make(run_end_encoded(int16(), utf8()), 5, {}, 0, 0,
                              {ArrayData::Make(int16(), 3, {nullptr, BufferOf<int16_t>({2, 3, 5})}, 0), kStrings});
  EXPECT_EQ(Features(*Batch("r", runs->Slice(1, 4))), std::vector<std::string>{R"(r: utf8 = ["cat", null, "bird", "bird"])"});
}

TEST(FeatureColumnsTest, EveryListKindIsAList) {
  auto ints = ArrayData::Make(int32(), 4, {nullptr, BufferOf<int32_t>({1, 2, 3, 4})}, 0);
  const auto item = Field::Make("item", int32());
  auto views = ArrayData::Make(list_view(item), 3, {ValidityOf("101"), BufferOf<int32_t>({2, 0, 0}), BufferOf<int32_t>({2, 0, 3})},
                               1, 0, {ints});
  EXPECT_EQ(Features(*Batch("lv", views)), std::vector<std::string>{"lv: list<int32> = [[3, 4], null, [1, 2, 3]]"});
  auto fixed = ArrayData::Make(fixed_size_list(item, 2), 2, {nullptr}, 0, 0, {ints});
  EXPECT_EQ(Features(*Batch("fl", fixed->Slice(1, 1))), std::vector<std::string>{"fl: list<int32> = [[3, 4]]"});
  auto dates = ArrayData::Make(date32(), 4, {nullptr, BufferOf<int32_t>({1, 2, 3, 4})}, 0);
  auto large = ArrayData::Make(large_list(Field::Make("item", date32())), 2, {nullptr, BufferOf<int64_t>({1, 1, 4})}, 0, 0,
                               {dates});
  EXPECT_EQ(Features(*Batch("ll", large)), std::vector<std::string>{"ll: list<int64> = [[], [2, 3, 4]]"});
}

TEST(FeatureColumnsTest, StructMembersBecomeParentDotMemberFeatures) {
  auto ints = ArrayData::Make(int32(), 3, {nullptr, BufferOf<int32_t>({7, 8, 9})}, 0);
  const DataTypePtr inner = struct_({Field::Make("z", int32())});
  auto deep = ArrayData::Make(inner, 3, {nullptr}, 0, 0, {ints});
  auto points = ArrayData::Make(struct_({Field::Make("s", utf8()), Field::Make("in", inner)}), 3, {ValidityOf("110")}, 1, 0,
                                {kStrings, deep});
  // The struct's null (row 2) nulls its members; a null member (row 1's s) stays null.
  EXPECT_EQ(Features(*Batch("p", points)),
            (std::vector<std::string>{R"(p.s: utf8 = ["cat", null, null])", "p.in.z: int32 = [7, 8, null]"}));
  EXPECT_EQ(Features(*Batch("p", points->Slice(1, 2))),
            (std::vector<std::string>{R"(p.s: utf8 = [null, null])", "p.in.z: int32 = [8, null]"}));
  // Lists of structs (and maps, lists of their entries) give one list per member.
  auto entries = ArrayData::Make(struct_({Field::Make("key", utf8(), false), Field::Make("value", int32())}), 3, {nullptr}, 0,
                                 0, {ArrayData::Make(utf8(), 3, {nullptr, BufferOf<int32_t>({0, 1, 2, 3}), Buffer::FromString("abc")}, 0),
                                     ints});
  const DataTypePtr map_type = map(Field::Make("key", utf8(), false), Field::Make("value", int32()));
  auto maps = ArrayData::Make(map_type, 2, {nullptr, BufferOf<int32_t>({0, 2, 3})}, 0, 0, {entries});
  EXPECT_EQ(Features(*Batch("m", maps)), (std::vector<std::string>{R"(m.key: list<utf8 not null> = [["a", "b"], ["c"]])",
                                                                  "m.value: list<int32> = [[7, 8], [9]]"}));
}

TEST(FeatureColumnsTest, MembersOfANullableStructAreNullableWhateverTheirOwnField) {
  // A member declared non-nullable is still null where its nullable struct is.
  auto ints = ArrayData::Make(int32(), 2, {nullptr, BufferOf<int32_t>({7, 8})}, 0);
  auto points = ArrayData::Make(struct_({Field::Make("x", int32(), /*nullable=*/false)}), 2, {ValidityOf("10")}, 1, 0,
                                {ints});
  auto batch = Batch("p", points);
  EXPECT_EQ(Features(*batch), (std::vector<std::string>{"p.x: int32 = [7, null]"}));
  auto plan = FeatureColumns::Make(batch->schema(), RecordType::kExample, FeatureOptions::Defaults());
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_TRUE(plan->schema()->field(0)->nullable());
  // A non-nullable struct keeps its members' own nullability.
  auto whole = ArrayData::Make(struct_({Field::Make("x", int32(), /*nullable=*/false)}), 2, {nullptr}, 0, 0, {ints});
  auto strict = FeatureColumns::Make(Schema::Make({Field::Make("p", whole->type, /*nullable=*/false)}),
                                     RecordType::kExample, FeatureOptions::Defaults());
  ASSERT_TRUE(strict.ok()) << strict.status().ToString();
  EXPECT_FALSE(strict->schema()->field(0)->nullable());
}

TEST(FeatureColumnsTest, ListsOfListsAreFeatureListsInSequenceExamples) {
  auto codes = ArrayData::Make(dictionary(int8(), utf8()), 3, {nullptr, BufferOf<int8_t>({2, 0, 2})}, 0);
  codes->dictionary = kStrings;
  auto steps = ArrayData::Make(list(codes->type), 2, {nullptr, BufferOf<int32_t>({0, 2, 3})}, 0, 0, {codes});
  auto lists = ArrayData::Make(large_list(Field::Make("item", steps->type)), 1, {nullptr, BufferOf<int64_t>({0, 2})}, 0, 0,
                               {steps});
  EXPECT_EQ(Features(*Batch("l", lists), RecordType::kSequenceExample),
            std::vector<std::string>{R"(l: list<list<utf8>> = [[["bird", "cat"], ["bird"]]])"});
  const Status example = PlanError(Batch("l", lists)->schema());
  EXPECT_EQ(example.code(), StatusCode::kTypeError);
  EXPECT_NE(example.message().find("column 'l' of type large_list<list<dictionary<values=utf8, indices=int8>>>: "
                                   "list<list<T>> needs the sequence-example record type"),
            std::string::npos)
      << example.ToString();
}

TEST(FeatureColumnsTest, ColumnsWithoutATfExampleFormAreNamed) {
  const auto error_of = [](const FieldPtr& field, RecordType type = RecordType::kExample) {
    const Status st = PlanError(Schema::Make({Field::Make("ok", int64()), field}), type);
    EXPECT_EQ(st.code(), StatusCode::kTypeError) << field->ToString();
    return st.message();
  };
  EXPECT_EQ(error_of(Field::Make("u", union_(UnionMode::kDense, {Field::Make("a", int32())}))),
            "column 'u' of type dense_union<a: int32=0>: tf.Example has no form for unions (a feature holds one kind "
            "of values)");
  EXPECT_NE(error_of(Field::Make("i", list(interval(IntervalUnit::kDayTime)))).find(
                "column 'i' of type list<interval[day_time]>: tf.Example has no form for day-time"),
            std::string::npos);
  EXPECT_NE(error_of(Field::Make("s", struct_({Field::Make("x", interval(IntervalUnit::kMonthDayNano))}))).find(
                "column 's' of type struct<x: interval[month_day_nano]>"),
            std::string::npos);
  EXPECT_NE(error_of(Field::Make("deep", list(list(list(int32())))), RecordType::kSequenceExample)
                .find("column 'deep' of type list<list<list<int32>>>: tf.Example holds lists, and lists of lists"),
            std::string::npos);
  EXPECT_NE(error_of(Field::Make("p", struct_({Field::Make("ll", list(list(int8())))})))
                .find("column 'p' of type struct<ll: list<list<int8>>> (feature 'p.ll'): list<list<T>> needs"),
            std::string::npos);
  // Two columns, or a column and a member, writing one feature name.
  EXPECT_NE(error_of(Field::Make("ok", utf8())).find("column 'ok' of type utf8, column 1: feature 'ok' is written by "
                                                     "column 0 'ok' too"),
            std::string::npos);
  const Status member = PlanError(Schema::Make({Field::Make("p.x", int64()), Field::Make("p", struct_({Field::Make("x", int8())}))}));
  EXPECT_NE(member.message().find("feature 'p.x' is written by column 0 'p.x' too"), std::string::npos) << member.ToString();
  EXPECT_EQ(ParseDecimalFeatures("float").ValueOrDie(), DecimalFeatures::kFloat);
  EXPECT_EQ(ParseDecimalFeatures("double").status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace recflow::example
