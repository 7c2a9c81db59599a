// Tests of Concatenate over the sample arrays of every type, slices, dictionaries and errors.
#include "recflow/columnar/concatenate.h"

#include <gtest/gtest.h>

#include "recflow/columnar/equals.h"
#include "recflow/columnar/validate.h"
#include "recflow/testing/sample_arrays.h"

namespace recflow {
namespace {

using testing::BufferOf;
using testing::ValidityOf;

TEST(Concatenate, SplitsOfEverySampleJoinBackToTheSample) {
  for (const auto& [name, array] : testing::SampleArrays()) {
    SCOPED_TRACE(name);
    for (int64_t cut = 0; cut <= array->length; ++cut) {
      auto joined = Concatenate({array->Slice(0, cut), array->Slice(cut, array->length - cut)});
      ASSERT_TRUE(joined.ok()) << joined.status().ToString();
      ASSERT_TRUE(ValidateFull(**joined).ok()) << ValidateFull(**joined).ToString();
      EXPECT_EQ((*joined)->offset, 0);
      EXPECT_TRUE(ArrayEquals(**joined, *array)) << "cut " << cut;
    }
  }
}

TEST(Concatenate, ThreeCopiesHoldEachElementThrice) {
  for (const auto& [name, array] : testing::SampleArrays()) {
    SCOPED_TRACE(name);
    auto joined = Concatenate({array, array, array});
    ASSERT_TRUE(joined.ok()) << joined.status().ToString();
    ASSERT_TRUE(ValidateFull(**joined).ok()) << ValidateFull(**joined).ToString();
    ASSERT_EQ((*joined)->length, 3 * array->length);
    EXPECT_EQ((*joined)->null_count, 3 * array->null_count);
    for (int k = 0; k < 3; ++k) {
      EXPECT_TRUE(ArrayEquals(*(*joined)->Slice(k * array->length, array->length), *array)) << "copy " << k;
    }
  }
}

TEST(Concatenate, SingleArrayAndEmptyArrays) {
  for (const auto& [name, array] : testing::SampleArrays()) {
    SCOPED_TRACE(name);
    auto one = Concatenate({array->Slice(0, 0), array, array->Slice(1, 0)});
    ASSERT_TRUE(one.ok()) << one.status().ToString();
    EXPECT_TRUE(ArrayEquals(**one, *array));
  }
}

TEST(Concatenate, RefusesMixedTypesAndNothing) {
  auto a = ArrayData::Make(int32(), 2, {nullptr, BufferOf<int32_t>({1, 2})}, 0);
  auto b = ArrayData::Make(int64(), 1, {nullptr, BufferOf<int64_t>({3})}, 0);
  EXPECT_EQ(Concatenate({a, b}).status().code(), StatusCode::kTypeError);
  EXPECT_EQ(Concatenate({}).status().code(), StatusCode::kInvalidArgument);
}

std::shared_ptr<ArrayData> Utf8Of(const std::vector<int32_t>& offsets, const std::string& data) {
  return ArrayData::Make(utf8(), static_cast<int64_t>(offsets.size()) - 1,
                         {nullptr, BufferOf(offsets), Buffer::FromString(data)}, 0);
}

TEST(Concatenate, DictionariesSharedOrExtendedByADelta) {
  auto dict_type = dictionary(int8(), utf8());
  auto small = Utf8Of({0, 1, 2}, "ab");
  auto large = Utf8Of({0, 1, 2, 3}, "abc");
  auto first = ArrayData::Make(dict_type, 2, {ValidityOf("10"), BufferOf<int8_t>({1, 0})}, 1);
  first->dictionary = small;
  auto second = ArrayData::Make(dict_type, 2, {nullptr, BufferOf<int8_t>({2, 0})}, 0);
  second->dictionary = large;
  auto joined = Concatenate({first, second});
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  ASSERT_TRUE(ValidateFull(**joined).ok());
  EXPECT_EQ((*joined)->dictionary, large);
  EXPECT_EQ((*joined)->null_count, 1);
  EXPECT_TRUE(ArrayEquals(*(*joined)->Slice(0, 2), *first));
  EXPECT_TRUE(ArrayEquals(*(*joined)->Slice(2, 2), *second));

  auto other = ArrayData::Make(dict_type, 1, {nullptr, BufferOf<int8_t>({0})}, 0);
  other->dictionary = Utf8Of({0, 1}, "z");
  EXPECT_EQ(Concatenate({first, other}).status().code(), StatusCode::kTypeError);
}

TEST(Concatenate, Int32OffsetsThatOverflowAreADataError) {
  // Two arrays whose offsets claim 2^30 + 2^30 bytes; only the offsets are looked at before the
  // overflow is found, so no data buffer of that size is needed.
  const int32_t big = 1 << 30;
  auto a = ArrayData::Make(list(int8()), 1, {nullptr, BufferOf<int32_t>({0, big})}, 0,
                           0, {ArrayData::Make(int8(), big, {nullptr, nullptr}, 0)});
  auto b = ArrayData::Make(list(int8()), 1, {nullptr, BufferOf<int32_t>({0, big})}, 0,
                           0, {ArrayData::Make(int8(), big, {nullptr, nullptr}, 0)});
  EXPECT_EQ(Concatenate({a, b}).status().code(), StatusCode::kDataError);
}

}  // namespace
}  // namespace recflow
