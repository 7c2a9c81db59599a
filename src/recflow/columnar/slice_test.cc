// Tests of zero-copy slicing: offsets accumulate, null counts are recomputed, nested views.
#include <gtest/gtest.h>

#include "recflow/columnar/array.h"
#include "recflow/columnar/builder.h"
#include "recflow/columnar/equals.h"
#include "recflow/columnar/pretty_print.h"
#include "recflow/columnar/schema.h"
#include "recflow/columnar/validate.h"

namespace recflow {
namespace {

// 0..n-1 with nulls where i % 3 == 1.
std::shared_ptr<ArrayData> MakeInts(int n) {
  Int32Builder b;
  for (int i = 0; i < n; ++i) {
    Status st = i % 3 == 1 ? b.AppendNull() : b.Append(i);
    EXPECT_TRUE(st.ok());
  }
  return *b.Finish();
}

TEST(SliceTest, NonByteAlignedValidity) {
  auto data = MakeInts(40);
  for (int64_t off = 0; off < 40; ++off) {
    for (int64_t len = 0; off + len <= 40; len += 3) {
      auto s = data->Slice(off, len);
      ASSERT_TRUE(ValidateFull(*s).ok()) << off << "," << len;
      Int32Array a(s);
      int64_t nulls = 0;
      for (int64_t i = 0; i < len; ++i) {
        const int64_t orig = off + i;
        const bool is_null = orig % 3 == 1;
        nulls += is_null;
        ASSERT_EQ(a.IsNull(i), is_null);
        if (!is_null) {
          ASSERT_EQ(a.Value(i), orig);
        }
      }
      EXPECT_EQ(a.null_count(), nulls) << off << "," << len;
      if (len > 0 && off % 3 != 1) {
        EXPECT_EQ(a.raw_values()[0], off);
      }
    }
  }
}

TEST(SliceTest, LongRangesCountNullsWordWise) {
  auto data = MakeInts(300);
  for (int64_t off : {0, 1, 7, 8, 63, 64, 100}) {
    const int64_t len = 300 - off - 5;
    int64_t nulls = 0;
    for (int64_t i = off; i < off + len; ++i) nulls += i % 3 == 1;
    EXPECT_EQ(data->Slice(off, len)->null_count, nulls) << off;
  }
}

TEST(SliceTest, NestedSlicesAccumulateOffsets) {
  auto data = MakeInts(40);
  auto s1 = data->Slice(5, 30);   // 5..34
  auto s2 = s1->Slice(3, 20);     // 8..27
  auto s3 = s2->Slice(9, 100);    // 17..27, clamped
  EXPECT_EQ(s2->offset, 8);
  EXPECT_EQ(s3->offset, 17);
  EXPECT_EQ(s3->length, 11);
  Int32Array a(s3);
  EXPECT_EQ(a.Value(0), 17);
  EXPECT_TRUE(a.IsNull(2));  // 19
  EXPECT_EQ(s3->null_count, 3);  // 19, 22, 25
}

TEST(SliceTest, ClampsOutOfRange) {
  auto data = MakeInts(10);
  EXPECT_EQ(data->Slice(20, 5)->length, 0);
  EXPECT_EQ(data->Slice(-3, 4)->length, 4);
  EXPECT_EQ(data->Slice(-3, 4)->offset, 0);
  EXPECT_EQ(data->Slice(8, 100)->length, 2);
}

TEST(SliceTest, BinaryAndListSlices) {
  BinaryBuilder sb(utf8());
  for (const char* s : {"a", "bb", "", "dddd", "eeeee"}) ASSERT_TRUE(sb.Append(s).ok());
  ASSERT_TRUE(sb.AppendNull().ok());
  auto strings = *sb.Finish();
  auto s = strings->Slice(1, 5);
  ASSERT_TRUE(ValidateFull(*s).ok());
  EXPECT_EQ(ArrayToString(*s), "[\"bb\", \"\", \"dddd\", \"eeeee\", null]");
  EXPECT_EQ(BinaryArray(s).value_offset(0), 1);  // offsets stay absolute into the data

  auto made = MakeBuilder(list(utf8()));
  auto& lb = static_cast<ListBuilder&>(**made);
  auto& vb = static_cast<BinaryBuilder&>(*lb.value_builder());
  for (int i = 0; i < 6; ++i) {
    if (i == 2) {
      ASSERT_TRUE(lb.AppendNull().ok());
      continue;
    }
    ASSERT_TRUE(lb.Append().ok());
    for (int k = 0; k < i; ++k) ASSERT_TRUE(vb.Append(std::string(1, static_cast<char>('a' + k))).ok());
  }
  auto lists = *lb.Finish();
  auto ls = lists->Slice(2, 3)->Slice(1, 2);
  ASSERT_TRUE(ValidateFull(*ls).ok());
  EXPECT_EQ(ls->null_count, 0);
  EXPECT_EQ(ArrayToString(*ls), "[[\"a\", \"b\", \"c\"], [\"a\", \"b\", \"c\", \"d\"]]");
  EXPECT_EQ(ArrayToString(*lists->Slice(1, 2)), "[[\"a\"], null]");
  EXPECT_EQ(lists->Slice(1, 2)->null_count, 1);
}

TEST(SliceTest, StructFieldsFollowTheParentOffset) {
  auto made = MakeBuilder(struct_({Field::Make("a", int64()), Field::Make("b", boolean())}));
  auto& b = static_cast<StructBuilder&>(**made);
  for (int i = 0; i < 12; ++i) {
    if (i % 4 == 3) {
      ASSERT_TRUE(b.AppendNull().ok());
      continue;
    }
    ASSERT_TRUE(b.Append().ok());
    ASSERT_TRUE(static_cast<Int64Builder*>(b.field_builder(0))->Append(i).ok());
    ASSERT_TRUE(static_cast<BooleanBuilder*>(b.field_builder(1))->Append(i % 2 == 0).ok());
  }
  auto data = *b.Finish();
  auto s = data->Slice(5, 5)->Slice(1, 3);  // rows 6, 7, 8
  ASSERT_TRUE(ValidateFull(*s).ok());
  EXPECT_EQ(s->null_count, 1);
  StructArray sa(s);
  auto a = sa.field(0);
  EXPECT_EQ(a->length, 3);
  EXPECT_EQ(Int64Array(a).Value(0), 6);
  EXPECT_TRUE(Int64Array(a).IsNull(1));
  EXPECT_EQ(ArrayToString(*s), "[{a: 6, b: true}, null, {a: 8, b: true}]");
  // A struct sliced and the same rows rebuilt compare equal.
  EXPECT_TRUE(ArrayEquals(*s, *data->Slice(6, 3)));
}

}  // namespace
}  // namespace recflow
