// Tests of Arrow's types beyond tf.Example's: names, equality, layouts, validation, equality of values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "recflow/columnar/element_access.h"
#include "recflow/columnar/equals.h"
#include "recflow/columnar/pretty_print.h"
#include "recflow/columnar/schema.h"
#include "recflow/columnar/validate.h"
#include "recflow/testing/sample_arrays.h"

namespace recflow {
namespace {

using testing::BufferOf;
using testing::ValidityOf;

std::shared_ptr<Buffer> Bytes(std::string_view s) { return Buffer::FromString(std::string(s)); }

void ExpectInvalid(const ArrayData& data, const std::string& needle) {
  Status st = ValidateFull(data);
  EXPECT_EQ(st.code(), StatusCode::kDataError) << needle;
  EXPECT_NE(st.message().find(needle), std::string::npos) << st.message();
}

TEST(ArrowTypesTest, NamesParametersAndEquality) {
  EXPECT_EQ(decimal(10, 2)->ToString(), "decimal128(10, 2)");
  EXPECT_EQ(decimal(40, -3, 256)->ToString(), "decimal256(40, -3)");
  EXPECT_EQ(timestamp(TimeUnit::kMicro, "UTC")->ToString(), "timestamp[us, tz=UTC]");
  EXPECT_EQ(timestamp(TimeUnit::kNano)->ToString(), "timestamp[ns]");
  EXPECT_EQ(time32(TimeUnit::kMilli)->ToString(), "time32[ms]");
  EXPECT_EQ(duration(TimeUnit::kSecond)->ToString(), "duration[s]");
  EXPECT_EQ(interval(IntervalUnit::kMonthDayNano)->ToString(), "interval[month_day_nano]");
  EXPECT_EQ(fixed_size_binary(16)->ToString(), "fixed_size_binary[16]");
  EXPECT_EQ(fixed_size_list(Field::Make("item", float32()), 3)->ToString(), "fixed_size_list<float32>[3]");
  EXPECT_EQ(large_list(Field::Make("item", int64(), false))->ToString(), "large_list<int64 not null>");
  EXPECT_EQ(map(Field::Make("key", utf8(), false), Field::Make("value", int32()))->ToString(), "map<utf8, int32>");
  EXPECT_EQ(union_(UnionMode::kDense, {Field::Make("a", int32()), Field::Make("b", utf8())}, {5, 7})->ToString(),
            "dense_union<a: int32=5, b: utf8=7>");
  EXPECT_EQ(dictionary(int16(), utf8(), true)->ToString(), "dictionary<values=utf8, indices=int16, ordered>");

  EXPECT_TRUE(timestamp(TimeUnit::kMicro, "UTC")->Equals(*timestamp(TimeUnit::kMicro, "UTC")));
  EXPECT_FALSE(timestamp(TimeUnit::kMicro, "UTC")->Equals(*timestamp(TimeUnit::kMicro)));
  EXPECT_FALSE(timestamp(TimeUnit::kMicro)->Equals(*timestamp(TimeUnit::kMilli)));
  EXPECT_FALSE(decimal(10, 2)->Equals(*decimal(10, 3)));
  EXPECT_FALSE(decimal(10, 2)->Equals(*decimal(10, 2, 256)));
  EXPECT_FALSE(dictionary(int16(), utf8())->Equals(*dictionary(int32(), utf8())));
  EXPECT_FALSE(dictionary(int16(), utf8())->Equals(*dictionary(int16(), binary())));
  EXPECT_FALSE(union_(UnionMode::kSparse, {Field::Make("a", int32())})->Equals(
      *union_(UnionMode::kDense, {Field::Make("a", int32())})));
  EXPECT_FALSE(fixed_size_binary(4)->Equals(*fixed_size_binary(8)));
  EXPECT_FALSE(large_utf8()->Equals(*utf8()));

  EXPECT_EQ(float16()->bit_width(), 16);
  EXPECT_EQ(decimal(76, 0, 256)->bit_width(), 256);
  EXPECT_EQ(interval(IntervalUnit::kDayTime)->bit_width(), 64);
  EXPECT_EQ(fixed_size_binary(3)->bit_width(), 24);
  EXPECT_EQ(fixed_size_binary(1 << 30)->bit_width(), 0);  // too wide for an int: not fixed-width
  // None of them is one of the types tf.Example, CSV and JSON Lines map.
  for (const DataTypePtr& t : {float16(), date32(), large_utf8(), timestamp(TimeUnit::kSecond)}) {
    EXPECT_FALSE(t->is_primitive()) << t->ToString();
    EXPECT_FALSE(t->is_nested()) << t->ToString();
  }
  EXPECT_EQ(dictionary(int8(), utf8())->value_type()->id(), TypeId::kUtf8);
  EXPECT_EQ(large_list(Field::Make("item", int8()))->value_type()->id(), TypeId::kInt8);
}

TEST(ArrowTypesTest, FixedWidthLayouts) {
  auto dates = ArrayData::Make(date32(), 3, {ValidityOf("101"), BufferOf<int32_t>({18000, 0, -1})}, 1);
  ASSERT_TRUE(ValidateFull(*dates).ok()) << ValidateFull(*dates).ToString();
  EXPECT_EQ(ArrayToString(*dates), "[18000, null, -1]");
  EXPECT_EQ(IntegerValue(*dates, 2), -1);
  auto short_values = ArrayData::Make(timestamp(TimeUnit::kMicro), 3, {nullptr, BufferOf<int64_t>({1, 2})}, 0);
  ExpectInvalid(*short_values, "values buffer of 16 bytes, expected at least 24");
  auto uuids = ArrayData::Make(fixed_size_binary(4), 2, {nullptr, Bytes("abcdwxyz")}, 0);
  ASSERT_TRUE(ValidateFull(*uuids).ok());
  EXPECT_EQ(BinaryValue(*uuids, 1), "wxyz");
  EXPECT_EQ(BinaryValue(*uuids->Slice(1, 1), 0), "wxyz");
  auto huge = ArrayData::Make(fixed_size_binary(1 << 30), 1 << 30, {nullptr, Bytes("x")}, 0);
  ExpectInvalid(*huge, "values buffer");
  auto decimals = ArrayData::Make(decimal(5, 2), 1, {nullptr, Bytes(std::string(15, '\0'))}, 0);
  ExpectInvalid(*decimals, "expected at least 16");
}

TEST(ArrowTypesTest, LargeOffsetsAndFixedSizeLists) {
  auto strings = ArrayData::Make(large_utf8(), 2, {nullptr, BufferOf<int64_t>({0, 3, 4}), Bytes("h\xc3\xa9y")}, 0);
  ASSERT_TRUE(ValidateFull(*strings).ok()) << ValidateFull(*strings).ToString();
  EXPECT_EQ(BinaryValue(*strings, 0), "h\xc3\xa9");
  EXPECT_EQ(BinaryValue(*strings, 1), "y");
  auto split_char = ArrayData::Make(large_utf8(), 2, {nullptr, BufferOf<int64_t>({0, 2, 4}), Bytes("h\xc3\xa9y")}, 0);
  ExpectInvalid(*split_char, "not valid UTF-8");
  auto bad_utf8 = ArrayData::Make(large_utf8(), 2, {nullptr, BufferOf<int64_t>({0, 2, 5}), Bytes("h\xffyyy")}, 0);
  ExpectInvalid(*bad_utf8, "not valid UTF-8");
  auto beyond = ArrayData::Make(large_binary(), 1, {nullptr, BufferOf<int64_t>({0, 1LL << 40}), Bytes("ab")}, 0);
  ExpectInvalid(*beyond, "beyond the 2");

  auto values = ArrayData::Make(int32(), 6, {nullptr, BufferOf<int32_t>({1, 2, 3, 4, 5, 6})}, 0);
  auto pairs = ArrayData::Make(fixed_size_list(Field::Make("item", int32()), 2), 3, {ValidityOf("110")}, 1, 0, {values});
  ASSERT_TRUE(ValidateFull(*pairs).ok()) << ValidateFull(*pairs).ToString();
  EXPECT_EQ(ArrayToString(*pairs), "[[1, 2], [3, 4], null]");
  EXPECT_EQ(ArrayToString(*pairs->Slice(1, 1)), "[[3, 4]]");
  auto too_few = ArrayData::Make(fixed_size_list(Field::Make("item", int32()), 3), 3, {nullptr}, 0, 0, {values});
  ExpectInvalid(*too_few, "expected at least 9");

  auto longs = ArrayData::Make(large_list(Field::Make("item", int32())), 2, {nullptr, BufferOf<int64_t>({0, 4, 6})}, 0, 0,
                               {values});
  ASSERT_TRUE(ValidateFull(*longs).ok());
  EXPECT_EQ(ArrayToString(*longs), "[[1, 2, 3, 4], [5, 6]]");
  EXPECT_TRUE(ArrayEquals(*longs->Slice(1, 1), *ArrayData::Make(large_list(Field::Make("item", int32())), 1,
                                                                  {nullptr, BufferOf<int64_t>({4, 6})}, 0, 0, {values})));
}

TEST(ArrowTypesTest, MapsAreListsOfEntries) {
  auto keys = ArrayData::Make(utf8(), 3, {nullptr, BufferOf<int32_t>({0, 1, 2, 3}), Bytes("abc")}, 0);
  auto items = ArrayData::Make(int32(), 3, {ValidityOf("101"), BufferOf<int32_t>({1, 0, 3})}, 1);
  const DataTypePtr type = map(Field::Make("key", utf8(), false), Field::Make("value", int32()));
  auto entries = ArrayData::Make(type->value_type(), 3, {nullptr}, 0, 0, {keys, items});
  auto maps = ArrayData::Make(type, 2, {nullptr, BufferOf<int32_t>({0, 2, 3})}, 0, 0, {entries});
  ASSERT_TRUE(ValidateFull(*maps).ok()) << ValidateFull(*maps).ToString();
  EXPECT_EQ(ArrayToString(*maps), R"([[{key: "a", value: 1}, {key: "b", value: null}], [{key: "c", value: 3}]])");
}

TEST(ArrowTypesTest, SparseAndDenseUnions) {
  const std::vector<FieldPtr> fields = {Field::Make("i", int32()), Field::Make("s", utf8())};
  auto ints = ArrayData::Make(int32(), 3, {ValidityOf("101"), BufferOf<int32_t>({7, 0, 9})}, 1);
  auto strings = ArrayData::Make(utf8(), 3, {nullptr, BufferOf<int32_t>({0, 1, 2, 3}), Bytes("xyz")}, 0);
  auto sparse = ArrayData::Make(union_(UnionMode::kSparse, fields, {3, 8}), 3, {nullptr, BufferOf<int8_t>({3, 8, 3})}, 0,
                                0, {ints, strings});
  ASSERT_TRUE(ValidateFull(*sparse).ok()) << ValidateFull(*sparse).ToString();
  EXPECT_EQ(ArrayToString(*sparse), R"([7, "y", 9])");
  EXPECT_EQ(ArrayToString(*sparse->Slice(1, 2)), R"(["y", 9])");
  auto bad_code = ArrayData::Make(union_(UnionMode::kSparse, fields, {3, 8}), 3, {nullptr, BufferOf<int8_t>({3, 4, 3})},
                                  0, 0, {ints, strings});
  ExpectInvalid(*bad_code, "type code 4");
  auto with_validity = ArrayData::Make(union_(UnionMode::kSparse, fields, {3, 8}), 3,
                                       {ValidityOf("111"), BufferOf<int8_t>({3, 8, 3})}, 0, 0, {ints, strings});
  ExpectInvalid(*with_validity, "no validity");

  auto dense = ArrayData::Make(union_(UnionMode::kDense, fields), 4,
                               {nullptr, BufferOf<int8_t>({1, 0, 1, 0}), BufferOf<int32_t>({2, 1, 0, 0})}, 0, 0, {ints, strings});
  ASSERT_TRUE(ValidateFull(*dense).ok()) << ValidateFull(*dense).ToString();
  EXPECT_EQ(ArrayToString(*dense), R"(["z", null, "x", 7])");
  auto outside = ArrayData::Make(union_(UnionMode::kDense, fields), 1, {nullptr, BufferOf<int8_t>({0}), BufferOf<int32_t>({3})},
                                 0, 0, {ints, strings});
  ExpectInvalid(*outside, "offset 3 outside child 0");
  EXPECT_FALSE(ArrayEquals(*dense->Slice(0, 1), *dense->Slice(2, 1)));
  EXPECT_FALSE(ArrayEquals(*dense->Slice(3, 1), *sparse->Slice(0, 1)));  // the same value, other types
}

TEST(ArrowTypesTest, DictionariesCompareByValue) {
  auto words = ArrayData::Make(utf8(), 3, {nullptr, BufferOf<int32_t>({0, 3, 6, 10}), Bytes("catdogbird")}, 0);
  auto other_words = ArrayData::Make(utf8(), 2, {nullptr, BufferOf<int32_t>({0, 4, 7}), Bytes("birddog")}, 0);
  const DataTypePtr type = dictionary(int8(), utf8());
  auto a = ArrayData::Make(type, 3, {ValidityOf("110"), BufferOf<int8_t>({2, 1, 0})}, 1);
  a->dictionary = words;
  auto b = ArrayData::Make(type, 3, {ValidityOf("110"), BufferOf<int8_t>({0, 1, 1})}, 1);
  b->dictionary = other_words;
  ASSERT_TRUE(ValidateFull(*a).ok()) << ValidateFull(*a).ToString();
  ASSERT_TRUE(ValidateFull(*b).ok()) << ValidateFull(*b).ToString();
  EXPECT_EQ(ArrayToString(*a), R"(["bird", "dog", null])");
  EXPECT_TRUE(ArrayEquals(*a, *b));  // the same values through different dictionaries

  auto out_of_range = ArrayData::Make(type, 1, {nullptr, BufferOf<int8_t>({3})}, 0);
  out_of_range->dictionary = words;
  ExpectInvalid(*out_of_range, "index 3 outside the dictionary of 3");
  auto negative = ArrayData::Make(type, 1, {nullptr, BufferOf<int8_t>({-1})}, 0);
  negative->dictionary = words;
  ExpectInvalid(*negative, "index -1");
  auto huge = ArrayData::Make(dictionary(uint64(), utf8()), 1, {nullptr, BufferOf<uint64_t>({~0ULL})}, 0);
  huge->dictionary = words;
  ExpectInvalid(*huge, "outside the dictionary");
  auto missing = ArrayData::Make(type, 1, {nullptr, BufferOf<int8_t>({0})}, 0);
  ExpectInvalid(*missing, "no dictionary");
  auto wrong_values = ArrayData::Make(type, 1, {nullptr, BufferOf<int8_t>({0})}, 0);
  wrong_values->dictionary = ArrayData::Make(int32(), 1, {nullptr, BufferOf<int32_t>({1})}, 0);
  ExpectInvalid(*wrong_values, "dictionary values are not of type utf8");
}

}  // namespace
}  // namespace recflow
