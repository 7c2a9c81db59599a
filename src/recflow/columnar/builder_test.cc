// Tests of the builders: every type, nulls (lazy validity), nesting, bulk appends, reuse.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "recflow/columnar/array.h"
#include "recflow/columnar/builder.h"
#include "recflow/columnar/equals.h"
#include "recflow/columnar/pretty_print.h"
#include "recflow/columnar/schema.h"
#include "recflow/columnar/validate.h"

namespace recflow {
namespace {

std::shared_ptr<ArrayData> FinishOk(ArrayBuilder* builder) {
  auto result = builder->Finish();
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  auto data = *result;
  Status st = ValidateFull(*data);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return data;
}

template <typename T>
void CheckNumeric() {
  NumericBuilder<T> b;
  EXPECT_EQ(b.type()->id(), CTypeTraits<T>::kTypeId);
  ASSERT_TRUE(b.Append(T(1)).ok());
  ASSERT_TRUE(b.AppendNull().ok());
  ASSERT_TRUE(b.Append(std::numeric_limits<T>::max()).ok());
  auto data = FinishOk(&b);
  NumericArray<T> a(data);
  ASSERT_EQ(a.length(), 3);
  EXPECT_EQ(a.null_count(), 1);
  EXPECT_EQ(a.Value(0), T(1));
  EXPECT_TRUE(a.IsNull(1));
  EXPECT_EQ(a.Value(2), std::numeric_limits<T>::max());
}

TEST(BuilderTest, AllNumericTypes) {
  CheckNumeric<int8_t>();
  CheckNumeric<int16_t>();
  CheckNumeric<int32_t>();
  CheckNumeric<int64_t>();
  CheckNumeric<uint8_t>();
  CheckNumeric<uint16_t>();
  CheckNumeric<uint32_t>();
  CheckNumeric<uint64_t>();
  CheckNumeric<float>();
  CheckNumeric<double>();
}

TEST(BuilderTest, AllValidHasNoValidityBuffer) {
  Int64Builder b;
  for (int64_t i = 0; i < 1000; ++i) ASSERT_TRUE(b.Append(i).ok());
  auto data = FinishOk(&b);
  EXPECT_EQ(data->null_count, 0);
  EXPECT_EQ(data->buffers[0], nullptr);
  Int64Array a(data);
  for (int64_t i = 0; i < 1000; ++i) EXPECT_EQ(a.Value(i), i);
}

TEST(BuilderTest, LazyValidityBackfillsValidBits) {
  Int32Builder b;
  for (int i = 0; i < 13; ++i) ASSERT_TRUE(b.Append(i).ok());
  ASSERT_TRUE(b.AppendNull().ok());
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(b.Append(i).ok());
  ASSERT_TRUE(b.AppendNulls(3).ok());
  auto data = FinishOk(&b);
  Int32Array a(data);
  ASSERT_EQ(a.length(), 37);
  EXPECT_EQ(a.null_count(), 4);
  for (int64_t i = 0; i < 37; ++i) EXPECT_EQ(a.IsNull(i), i == 13 || i >= 34) << i;
  EXPECT_EQ(a.Value(14), 0);
  EXPECT_EQ(a.Value(33), 19);
}

TEST(BuilderTest, BulkUnsafeAndUninitialized) {
  Float64Builder b;
  const double values[] = {1.5, -2.25, NAN};
  ASSERT_TRUE(b.AppendValues(values, 3).ok());
  ASSERT_TRUE(b.Reserve(2).ok());
  b.UnsafeAppend(4.0);
  ASSERT_TRUE(b.AppendNull().ok());  // creates the bitmap after Reserve
  b.UnsafeAppend(5.0);               // still covered by the reservation
  double* slots = nullptr;
  ASSERT_TRUE(b.AppendUninitialized(4, &slots).ok());
  for (int i = 0; i < 4; ++i) slots[i] = 10.0 + i;
  EXPECT_EQ(b.GetValue(8), 12.0);
  auto data = FinishOk(&b);
  Float64Array a(data);
  ASSERT_EQ(a.length(), 10);
  EXPECT_EQ(a.null_count(), 1);
  EXPECT_EQ(a.Value(1), -2.25);
  EXPECT_TRUE(std::isnan(a.Value(2)));
  EXPECT_EQ(a.Value(3), 4.0);
  EXPECT_TRUE(a.IsNull(4));
  EXPECT_EQ(a.Value(5), 5.0);
  EXPECT_EQ(a.Value(9), 13.0);
  EXPECT_TRUE(a.IsValid(9));
  EXPECT_FALSE(b.AppendValues(values, -1).ok());
}

TEST(BuilderTest, FinishResetsForReuse) {
  Int64Builder b;
  ASSERT_TRUE(b.AppendNull().ok());
  auto first = FinishOk(&b);
  EXPECT_EQ(b.length(), 0);
  EXPECT_EQ(b.null_count(), 0);
  ASSERT_TRUE(b.Append(7).ok());
  auto second = FinishOk(&b);
  EXPECT_EQ(second->length, 1);
  EXPECT_EQ(second->null_count, 0);
  EXPECT_EQ(second->buffers[0], nullptr);
  EXPECT_EQ(Int64Array(second).Value(0), 7);
  EXPECT_EQ(first->null_count, 1);
  auto empty = FinishOk(&b);
  EXPECT_EQ(empty->length, 0);
}

TEST(BuilderTest, Boolean) {
  BooleanBuilder b;
  for (int i = 0; i < 19; ++i) {
    if (i % 5 == 4) {
      ASSERT_TRUE(b.AppendNull().ok());
    } else {
      ASSERT_TRUE(b.Append(i % 3 == 0).ok());
    }
  }
  auto data = FinishOk(&b);
  BooleanArray a(data);
  ASSERT_EQ(a.length(), 19);
  EXPECT_EQ(a.null_count(), 3);
  for (int i = 0; i < 19; ++i) {
    EXPECT_EQ(a.IsNull(i), i % 5 == 4) << i;
    if (i % 5 != 4) {
      EXPECT_EQ(a.Value(i), i % 3 == 0) << i;
    }
  }
}

TEST(BuilderTest, BinaryAndUtf8) {
  BinaryBuilder b(utf8());
  ASSERT_TRUE(b.Append("hello").ok());
  ASSERT_TRUE(b.AppendNull().ok());
  ASSERT_TRUE(b.Append("").ok());
  ASSERT_TRUE(b.Append("wörld").ok());
  EXPECT_EQ(b.value_data_length(), 11);
  auto data = FinishOk(&b);
  EXPECT_TRUE(data->type->Equals(*utf8()));
  BinaryArray a(data);
  ASSERT_EQ(a.length(), 4);
  EXPECT_EQ(a.GetView(0), "hello");
  EXPECT_TRUE(a.IsNull(1));
  EXPECT_EQ(a.value_length(1), 0);
  EXPECT_EQ(a.GetView(2), "");
  EXPECT_EQ(a.GetView(3), "wörld");
  EXPECT_EQ(a.value_offset(3), 5);
  EXPECT_EQ(ArrayToString(*data), "[\"hello\", null, \"\", \"w\\xc3\\xb6rld\"]");

  BinaryBuilder raw;
  const uint8_t bytes[] = {0, 0xFF, 1};
  ASSERT_TRUE(raw.Append(bytes, 3).ok());
  auto raw_data = FinishOk(&raw);
  EXPECT_TRUE(raw_data->type->Equals(*binary()));
  EXPECT_EQ(BinaryArray(raw_data).GetView(0), std::string_view("\0\xff\x01", 3));
}

TEST(BuilderTest, BinaryValuesWrittenInPlace) {
  BinaryBuilder b;
  ASSERT_TRUE(b.Append("ab").ok());
  ASSERT_TRUE(b.value_data().Append("cde", 3).ok());
  ASSERT_TRUE(b.AppendWritten(3).ok());
  ASSERT_TRUE(b.AppendNull().ok());
  ASSERT_TRUE(b.AppendWritten(0).ok());
  EXPECT_EQ(b.AppendWritten(6).code(), StatusCode::kInvalidArgument);  // only 5 bytes exist
  auto data = FinishOk(&b);
  BinaryArray a(data);
  ASSERT_EQ(a.length(), 4);
  EXPECT_EQ(a.GetView(0), "ab");
  EXPECT_EQ(a.GetView(1), "cde");
  EXPECT_TRUE(a.IsNull(2));
  EXPECT_EQ(a.GetView(3), "");
  EXPECT_TRUE(ValidateFull(*data).ok());
}

TEST(BuilderTest, BinaryRefusesToExceedInt32Offsets) {
  BinaryBuilder b;
  ASSERT_TRUE(b.Append("0123456789").ok());
  const uint8_t byte = 0;
  // The size is checked before the bytes are read or memory is reserved.
  Status st = b.Append(&byte, kMaxInt32Offset - 5);
  EXPECT_EQ(st.code(), StatusCode::kDataError) << st.ToString();
  EXPECT_EQ(b.ReserveData(kMaxInt32Offset).code(), StatusCode::kDataError);
  EXPECT_EQ(b.length(), 1);
  ASSERT_TRUE(b.Append("x").ok());
  auto data = FinishOk(&b);
  EXPECT_EQ(BinaryArray(data).GetView(1), "x");
}

TEST(BuilderTest, ListWithNullsAndEmptyLists) {
  ListBuilder b(list(int64()), std::make_unique<Int64Builder>());
  auto* values = static_cast<Int64Builder*>(b.value_builder());
  ASSERT_TRUE(b.Append().ok());
  ASSERT_TRUE(values->Append(1).ok());
  ASSERT_TRUE(values->Append(2).ok());
  ASSERT_TRUE(b.AppendNull().ok());
  ASSERT_TRUE(b.Append().ok());  // empty
  ASSERT_TRUE(b.Append().ok());
  ASSERT_TRUE(values->AppendNull().ok());
  ASSERT_TRUE(values->Append(3).ok());
  auto data = FinishOk(&b);
  ListArray a(data);
  ASSERT_EQ(a.length(), 4);
  EXPECT_EQ(a.null_count(), 1);
  EXPECT_EQ(a.value_length(0), 2);
  EXPECT_TRUE(a.IsNull(1));
  EXPECT_EQ(a.value_length(1), 0);
  EXPECT_TRUE(a.IsValid(2));
  EXPECT_EQ(a.value_length(2), 0);
  EXPECT_EQ(a.value_offset(3), 2);
  EXPECT_EQ(a.values()->length, 4);
  EXPECT_EQ(ArrayToString(*data), "[[1, 2], null, [], [null, 3]]");
  EXPECT_EQ(b.value_builder()->length(), 0);  // the child was reset too
}

TEST(BuilderTest, ListOfListOfInt64) {
  auto type = list(list(int64()));
  auto made = MakeBuilder(type);
  ASSERT_TRUE(made.ok());
  auto& outer = static_cast<ListBuilder&>(**made);
  auto& inner = static_cast<ListBuilder&>(*outer.value_builder());
  auto& ints = static_cast<Int64Builder&>(*inner.value_builder());
  // [[[1, 2], []], null, [], [null, [3]]]
  ASSERT_TRUE(outer.Append().ok());
  ASSERT_TRUE(inner.Append().ok());
  ASSERT_TRUE(ints.Append(1).ok());
  ASSERT_TRUE(ints.Append(2).ok());
  ASSERT_TRUE(inner.Append().ok());
  ASSERT_TRUE(outer.AppendNull().ok());
  ASSERT_TRUE(outer.Append().ok());
  ASSERT_TRUE(outer.Append().ok());
  ASSERT_TRUE(inner.AppendNull().ok());
  ASSERT_TRUE(inner.Append().ok());
  ASSERT_TRUE(ints.Append(3).ok());
  auto data = FinishOk(&outer);
  EXPECT_TRUE(data->type->Equals(*type));
  EXPECT_EQ(ArrayToString(*data), "[[[1, 2], []], null, [], [null, [3]]]");
  ListArray a(data);
  EXPECT_EQ(a.values()->length, 4);
  EXPECT_EQ(a.values()->null_count, 1);
  EXPECT_EQ(a.values()->children[0]->length, 3);
}

// Truncate drops what was appended past a point — values, nulls, set bits, bytes, list children
// — so that the rows appended next give the same array as a builder that never saw the dropped
// rows. The cut falls inside a bitmap byte and after the first null created the bitmap.
TEST(BuilderTest, TruncateLeavesNoTraceOfTheDroppedRows) {
  auto type = list(struct_({Field::Make("b", boolean()), Field::Make("i", int32()), Field::Make("s", utf8())}));
  auto row = [](ArrayBuilder* root, int k, bool null_row) {
    auto* outer = static_cast<ListBuilder*>(root);
    auto* st = static_cast<StructBuilder*>(outer->value_builder());
    auto* b = static_cast<BooleanBuilder*>(st->field_builder(0));
    auto* i = static_cast<Int32Builder*>(st->field_builder(1));
    auto* s = static_cast<BinaryBuilder*>(st->field_builder(2));
    if (null_row) return outer->AppendNull();
    RETURN_NOT_OK(outer->Append());
    for (int e = 0; e < k % 3 + 1; ++e) {
      if ((k + e) % 4 == 3) {
        RETURN_NOT_OK(st->AppendNull());
        continue;
      }
      RETURN_NOT_OK(st->Append());
      RETURN_NOT_OK((k + e) % 2 ? b->Append(true) : b->AppendNull());
      RETURN_NOT_OK(i->Append(k * 10 + e));
      RETURN_NOT_OK(e == 1 ? s->AppendNull() : s->Append(std::string(static_cast<size_t>(k), 'x')));
    }
    return Status::OK();
  };
  for (int cut = 0; cut <= 11; ++cut) {
    auto expected = MakeBuilder(type);
    auto truncated = MakeBuilder(type);
    ASSERT_TRUE(expected.ok() && truncated.ok());
    for (int k = 0; k < 20; ++k) ASSERT_TRUE(row(expected->get(), k, k % 5 == 4).ok());
    for (int k = 0; k < cut; ++k) ASSERT_TRUE(row(truncated->get(), k, k % 5 == 4).ok());
    for (int k = 0; k < 9; ++k) ASSERT_TRUE(row(truncated->get(), 100 + k, k % 3 == 1).ok());  // dropped below
    (*truncated)->Truncate(cut);
    EXPECT_EQ((*truncated)->length(), cut);
    for (int k = cut; k < 20; ++k) ASSERT_TRUE(row(truncated->get(), k, k % 5 == 4).ok());
    auto want = FinishOk(expected->get());
    auto got = FinishOk(truncated->get());
    EXPECT_EQ(got->null_count, want->null_count);
    EXPECT_TRUE(ArrayEquals(*got, *want)) << "cut " << cut << "\n" << ArrayToString(*got) << "\n" << ArrayToString(*want);
  }
}

TEST(BuilderTest, TruncateOfBooleansAndNullsClearsTheDroppedBits) {
  BooleanBuilder b;
  for (int k = 0; k < 13; ++k) ASSERT_TRUE(b.Append(true).ok());
  ASSERT_TRUE(b.AppendNull().ok());
  b.Truncate(3);
  EXPECT_EQ(b.null_count(), 0);
  ASSERT_TRUE(b.Append(false).ok());
  ASSERT_TRUE(b.AppendNulls(6).ok());
  auto data = FinishOk(&b);
  EXPECT_EQ(ArrayToString(*data), "[true, true, true, false, null, null, null, null, null, null]");
  NullBuilder n;
  ASSERT_TRUE(n.AppendNulls(5).ok());
  n.Truncate(2);
  EXPECT_EQ(n.null_count(), 2);
  n.Truncate(7);  // clamped: nothing to drop
  EXPECT_EQ(FinishOk(&n)->length, 2);
}

TEST(BuilderTest, StructWithNulls) {
  auto type = struct_({Field::Make("a", int64()), Field::Make("b", utf8())});
  auto made = MakeBuilder(type);
  ASSERT_TRUE(made.ok());
  auto& b = static_cast<StructBuilder&>(**made);
  ASSERT_EQ(b.num_fields(), 2);
  auto& a_builder = static_cast<Int64Builder&>(*b.field_builder(0));
  auto& b_builder = static_cast<BinaryBuilder&>(*b.field_builder(1));
  ASSERT_TRUE(b.Append().ok());
  ASSERT_TRUE(a_builder.Append(1).ok());
  ASSERT_TRUE(b_builder.Append("x").ok());
  ASSERT_TRUE(b.AppendNull().ok());  // appends nulls to the fields too
  ASSERT_TRUE(b.Append().ok());
  ASSERT_TRUE(a_builder.AppendNull().ok());
  ASSERT_TRUE(b_builder.Append("y").ok());
  auto data = FinishOk(&b);
  StructArray s(data);
  ASSERT_EQ(s.length(), 3);
  EXPECT_EQ(s.null_count(), 1);
  EXPECT_TRUE(s.IsNull(1));
  EXPECT_EQ(s.field(0)->null_count, 2);
  EXPECT_EQ(ArrayToString(*data), "[{a: 1, b: \"x\"}, null, {a: null, b: \"y\"}]");
}

TEST(BuilderTest, StructFinishRejectsMisalignedFields) {
  StructBuilder b(struct_({Field::Make("a", int64())}), [] {
    std::vector<std::unique_ptr<ArrayBuilder>> v;
    v.push_back(std::make_unique<Int64Builder>());
    return v;
  }());
  ASSERT_TRUE(b.Append().ok());
  EXPECT_FALSE(b.Finish().ok());
}

TEST(BuilderTest, NullType) {
  auto made = MakeBuilder(null());
  ASSERT_TRUE(made.ok());
  ASSERT_TRUE((*made)->AppendNulls(3).ok());
  ASSERT_TRUE((*made)->AppendNull().ok());
  auto data = FinishOk(made->get());
  EXPECT_EQ(data->length, 4);
  EXPECT_EQ(data->null_count, 4);
  EXPECT_TRUE(data->buffers.empty());
  EXPECT_TRUE(NullArray(data).IsNull(2));
  EXPECT_EQ(ArrayToString(*data), "[null, null, null, null]");
}

TEST(BuilderTest, MakeBuilderCoversEveryType) {
  for (const auto& type : {null(), boolean(), int8(), int16(), int32(), int64(), uint8(), uint16(), uint32(), uint64(),
                           float32(), float64(), binary(), utf8(), list(utf8()), date32(), date64(),
                           time32(TimeUnit::kMilli), timestamp(TimeUnit::kMicro, "UTC"), duration(TimeUnit::kNano),
                           list(date32()), struct_({Field::Make("x", list(float32()))})}) {
    auto made = MakeBuilder(type);
    ASSERT_TRUE(made.ok()) << type->ToString();
    EXPECT_TRUE((*made)->type()->Equals(*type));
    ASSERT_TRUE((*made)->AppendNulls(2).ok());
    auto data = FinishOk(made->get());
    EXPECT_EQ(data->length, 2);
    EXPECT_EQ(data->null_count, 2);
  }
}

}  // namespace
}  // namespace recflow
