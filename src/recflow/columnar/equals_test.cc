// Tests of ArrayEquals: values, nulls, slices, floats, nested types.
#include <gtest/gtest.h>

#include <cmath>

#include "recflow/columnar/builder.h"
#include "recflow/columnar/equals.h"
#include "recflow/columnar/schema.h"

namespace recflow {
namespace {

std::shared_ptr<ArrayData> Doubles(std::vector<double> values, int null_at = -1) {
  Float64Builder b;
  for (size_t i = 0; i < values.size(); ++i) {
    Status st = static_cast<int>(i) == null_at ? b.AppendNull() : b.Append(values[i]);
    EXPECT_TRUE(st.ok());
  }
  return *b.Finish();
}

std::shared_ptr<ArrayData> Strings(std::vector<const char*> values) {
  BinaryBuilder b(utf8());
  for (const char* v : values) {
    Status st = v == nullptr ? b.AppendNull() : b.Append(v);
    EXPECT_TRUE(st.ok());
  }
  return *b.Finish();
}

TEST(EqualsTest, Numbers) {
  EXPECT_TRUE(ArrayEquals(*Doubles({1, 2, 3}), *Doubles({1, 2, 3})));
  EXPECT_FALSE(ArrayEquals(*Doubles({1, 2, 3}), *Doubles({1, 2, 4})));
  EXPECT_FALSE(ArrayEquals(*Doubles({1, 2}), *Doubles({1, 2, 3})));
  // The value behind a null does not matter; the null position does.
  EXPECT_TRUE(ArrayEquals(*Doubles({1, 5, 3}, 1), *Doubles({1, 7, 3}, 1)));
  EXPECT_FALSE(ArrayEquals(*Doubles({1, 2, 3}, 1), *Doubles({1, 2, 3}, 2)));
  EXPECT_FALSE(ArrayEquals(*Doubles({1, 2, 3}, 1), *Doubles({1, 2, 3})));
  // Types must match.
  Int64Builder ib;
  ASSERT_TRUE(ib.Append(1).ok());
  EXPECT_FALSE(ArrayEquals(*Doubles({1}), **ib.Finish()));
}

TEST(EqualsTest, FloatsNaNAndSignedZero) {
  EXPECT_TRUE(ArrayEquals(*Doubles({NAN}), *Doubles({NAN})));
  EXPECT_TRUE(ArrayEquals(*Doubles({std::nan("1")}), *Doubles({-std::nan("2")})));
  EXPECT_FALSE(ArrayEquals(*Doubles({0.0}), *Doubles({-0.0})));
  Float32Builder a, b;
  ASSERT_TRUE(a.Append(NAN).ok());
  ASSERT_TRUE(b.Append(NAN).ok());
  EXPECT_TRUE(ArrayEquals(**a.Finish(), **b.Finish()));
}

TEST(EqualsTest, SlicesCompareLogically) {
  auto whole = Strings({"x", "a", nullptr, "b"});
  auto other = Strings({"a", nullptr, "b"});
  EXPECT_TRUE(ArrayEquals(*whole->Slice(1, 3), *other));
  EXPECT_FALSE(ArrayEquals(*whole->Slice(0, 3), *other));
  EXPECT_TRUE(ArrayEquals(*whole->Slice(2, 1), *other->Slice(1, 1)));
}

TEST(EqualsTest, NestedAndBool) {
  auto make = [](bool variant) {
    auto builder = *MakeBuilder(list(struct_({Field::Make("f", boolean())})));
    auto& lb = static_cast<ListBuilder&>(*builder);
    auto& sb = static_cast<StructBuilder&>(*lb.value_builder());
    auto& bb = static_cast<BooleanBuilder&>(*sb.field_builder(0));
    EXPECT_TRUE(lb.Append().ok());
    EXPECT_TRUE(sb.Append().ok());
    EXPECT_TRUE(bb.Append(true).ok());
    EXPECT_TRUE(sb.AppendNull().ok());
    EXPECT_TRUE(lb.Append().ok());
    EXPECT_TRUE(sb.Append().ok());
    EXPECT_TRUE(bb.Append(variant).ok());
    return *lb.Finish();
  };
  EXPECT_TRUE(ArrayEquals(*make(false), *make(false)));
  EXPECT_FALSE(ArrayEquals(*make(false), *make(true)));
  EXPECT_TRUE(ArrayEquals(*make(true)->Slice(1, 1), *make(true)->Slice(1, 1)));
}

TEST(EqualsTest, ListBoundariesMatter) {
  auto make = [](std::vector<int> sizes) {
    ListBuilder lb(list(int64()), std::make_unique<Int64Builder>());
    int64_t v = 0;
    for (int size : sizes) {
      EXPECT_TRUE(lb.Append().ok());
      for (int k = 0; k < size; ++k) EXPECT_TRUE(static_cast<Int64Builder*>(lb.value_builder())->Append(v++).ok());
    }
    return *lb.Finish();
  };
  EXPECT_TRUE(ArrayEquals(*make({1, 2}), *make({1, 2})));
  EXPECT_FALSE(ArrayEquals(*make({1, 2}), *make({2, 1})));
}

}  // namespace
}  // namespace recflow
