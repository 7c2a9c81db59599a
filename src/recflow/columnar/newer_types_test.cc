// Tests of Arrow's newer layouts: binary/utf8 views, list views, run-end encoding, decimal32/64 — values and hostile buffers.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "recflow/columnar/c_data_format.h"
#include "recflow/columnar/concatenate.h"
#include "recflow/columnar/element_access.h"
#include "recflow/columnar/equals.h"
#include "recflow/columnar/pretty_print.h"
#include "recflow/columnar/run_ends.h"
#include "recflow/columnar/schema.h"
#include "recflow/columnar/validate.h"
#include "recflow/testing/sample_arrays.h"

namespace recflow {
namespace {

using testing::BufferOf;
using testing::ValidityOf;
using testing::ViewsOf;
using testing::ViewSpec;

std::shared_ptr<Buffer> Bytes(std::string_view s) { return Buffer::FromString(std::string(s)); }

void ExpectInvalid(const ArrayData& data, const std::string& needle) {
  Status st = ValidateFull(data);
  EXPECT_EQ(st.code(), StatusCode::kDataError) << needle;
  EXPECT_NE(st.message().find(needle), std::string::npos) << st.message();
}

TEST(NewerTypesTest, NamesFormatsAndEquality) {
  const FieldPtr item = Field::Make("item", int32());
  EXPECT_EQ(binary_view()->ToString(), "binary_view");
  EXPECT_EQ(utf8_view()->ToString(), "utf8_view");
  EXPECT_EQ(list_view(item)->ToString(), "list_view<int32>");
  EXPECT_EQ(large_list_view(Field::Make("item", utf8(), false))->ToString(), "large_list_view<utf8 not null>");
  EXPECT_EQ(run_end_encoded(int16(), utf8())->ToString(), "run_end_encoded<run_ends=int16, values=utf8>");
  EXPECT_EQ(decimal(9, 2, 32)->ToString(), "decimal32(9, 2)");
  EXPECT_EQ(decimal(18, -1, 64)->ToString(), "decimal64(18, -1)");
  EXPECT_EQ(decimal(9, 2, 32)->bit_width(), 32);
  EXPECT_EQ(decimal(9, 2, 64)->bit_width(), 64);

  EXPECT_FALSE(list_view(item)->Equals(*large_list_view(item)));
  EXPECT_FALSE(list_view(item)->Equals(*list(item)));
  EXPECT_FALSE(utf8_view()->Equals(*utf8()));
  EXPECT_FALSE(run_end_encoded(int16(), utf8())->Equals(*run_end_encoded(int32(), utf8())));
  EXPECT_FALSE(decimal(9, 2, 32)->Equals(*decimal(9, 2, 64)));
  EXPECT_EQ(run_end_encoded(int64(), utf8())->value_type()->id(), TypeId::kUtf8);
  EXPECT_EQ(list_view(item)->value_type()->id(), TypeId::kInt32);
  EXPECT_FALSE(run_end_encoded(int64(), utf8())->fields()[0]->nullable());

  // The C Data Interface's format strings.
  EXPECT_EQ(c_data::FormatOf(*binary_view()), "vz");
  EXPECT_EQ(c_data::FormatOf(*utf8_view()), "vu");
  EXPECT_EQ(c_data::FormatOf(*list_view(item)), "+vl");
  EXPECT_EQ(c_data::FormatOf(*large_list_view(item)), "+vL");
  EXPECT_EQ(c_data::FormatOf(*run_end_encoded(int32(), utf8())), "+r");
  EXPECT_EQ(c_data::FormatOf(*decimal(9, 2, 32)), "d:9,2,32");
  EXPECT_EQ(c_data::FormatOf(*decimal(18, 3, 64)), "d:18,3,64");
  EXPECT_TRUE(c_data::TypeFromFormat("d:7,1,32", {}, 0).ValueOrDie()->Equals(*decimal(7, 1, 32)));
  EXPECT_FALSE(c_data::TypeFromFormat("d:7,1,16", {}, 0).ok());
  EXPECT_FALSE(c_data::TypeFromFormat("+r", {Field::Make("run_ends", int8()), Field::Make("values", utf8())}, 0).ok());
  EXPECT_FALSE(c_data::TypeFromFormat("+vl", {}, 0).ok());
}

TEST(NewerTypesTest, ViewsReadInlineAndVariadicBytes) {
  const std::vector<ViewSpec> views = {{"tiny"}, {"exactly12byt"}, {"thirteen byte", 1, 2}, {"from buffer zero", 0, 0}};
  auto data = ArrayData::Make(utf8_view(), 4, {nullptr, ViewsOf(views), Bytes("from buffer zero"), Bytes("..thirteen byte")},
                              0);
  ASSERT_TRUE(ValidateFull(*data).ok()) << ValidateFull(*data).ToString();
  EXPECT_EQ(BinaryValue(*data, 0), "tiny");
  EXPECT_EQ(BinaryValue(*data, 1), "exactly12byt");
  EXPECT_EQ(BinaryValue(*data, 2), "thirteen byte");
  EXPECT_EQ(BinaryValue(*data->Slice(3, 1), 0), "from buffer zero");
  EXPECT_EQ(ArrayToString(*data->Slice(1, 2)), R"(["exactly12byt", "thirteen byte"])");
  // Equal values through other buffers are equal.
  auto other = ArrayData::Make(utf8_view(), 1, {nullptr, ViewsOf({{"thirteen byte", 0, 0}}), Bytes("thirteen byte")}, 0);
  EXPECT_TRUE(ArrayEquals(*other, *data->Slice(2, 1)));
  EXPECT_FALSE(ArrayEquals(*other, *data->Slice(3, 1)));
}

TEST(NewerTypesTest, ConcatenatedViewsShiftOnlyWhatTheyMayAndNeverOverflow) {
  auto first = ArrayData::Make(utf8_view(), 1, {nullptr, ViewsOf({{"thirteen byte", 0, 0}}), Bytes("thirteen byte")}, 0);
  // A null view's buffer index is never checked (here the largest int32): shifting it past the
  // first array's buffer must not overflow.
  auto second = ArrayData::Make(utf8_view(), 2,
                                {ValidityOf("10"), ViewsOf({{"fourteen bytes", 0, 0}, {"garbage index!", INT32_MAX, 0}}),
                                 Bytes("fourteen bytes")},
                                1);
  ASSERT_TRUE(ValidateFull(*second).ok()) << ValidateFull(*second).ToString();
  auto joined = Concatenate({first, second});
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  ASSERT_TRUE(ValidateFull(**joined).ok()) << ValidateFull(**joined).ToString();
  EXPECT_EQ(ArrayToString(**joined), R"(["thirteen byte", "fourteen bytes", null])");
}

TEST(NewerTypesTest, HostileViewsAreDataErrors) {
  const auto with_views = [](const std::vector<ViewSpec>& views, DataTypePtr type = binary_view()) {
    return ArrayData::Make(std::move(type), static_cast<int64_t>(views.size()),
                           {nullptr, ViewsOf(views), Bytes("0123456789abcdefghij")}, 0);
  };
  ExpectInvalid(*with_views({{"0123456789abc", 0, 8}}), "bytes [8, 21) outside data buffer 0 of 20 bytes");
  ExpectInvalid(*with_views({{"0123456789abc", 1, 0}}), "points to data buffer 1 of 1");
  ExpectInvalid(*with_views({{"0123456789abc", -1, 0}}), "points to data buffer -1 of 1");
  ExpectInvalid(*with_views({{"0123456789abc", 0, -4}}), "outside data buffer 0");
  ExpectInvalid(*with_views({{"XXXX456789abc", 0, 0}}), "prefix that differs");
  // An offset near INT32_MAX plus a size does not wrap around.
  ExpectInvalid(*with_views({{"0123456789abc", 0, 0x7FFFFFF0}}), "outside data buffer 0");

  auto negative = with_views({{"x"}});
  std::string bytes(negative->buffers[1]->view());
  const int32_t minus = -5;
  std::memcpy(bytes.data(), &minus, 4);
  negative->buffers[1] = Bytes(bytes);
  ExpectInvalid(*negative, "negative size -5");

  ExpectInvalid(*with_views({{"h\xffllo"}}, utf8_view()), "not valid UTF-8");
  // A long value's UTF-8 is checked where it lies, not in its prefix.
  ExpectInvalid(*ArrayData::Make(utf8_view(), 1, {nullptr, ViewsOf({{"long value \xff\xfe", 0, 0}}),
                                                    Bytes("long value \xff\xfe")}, 0),
                "not valid UTF-8");
  auto short_views = ArrayData::Make(binary_view(), 2, {nullptr, ViewsOf({{"a"}})}, 0);
  ExpectInvalid(*short_views, "views buffer of 16 bytes, expected at least 32");
  auto one_buffer = ArrayData::Make(binary_view(), 0, {nullptr}, 0);
  ExpectInvalid(*one_buffer, "1 buffers, expected at least 2");
  // Null views are not read.
  auto null_garbage = ArrayData::Make(binary_view(), 1, {ValidityOf("0"), ViewsOf({{"0123456789abc", 7, 99}})}, 1);
  EXPECT_TRUE(ValidateFull(*null_garbage).ok()) << ValidateFull(*null_garbage).ToString();
}

TEST(NewerTypesTest, ListViewsMayOverlapButStayInsideTheChild) {
  auto values = ArrayData::Make(int32(), 4, {nullptr, BufferOf<int32_t>({1, 2, 3, 4})}, 0);
  const DataTypePtr type = list_view(Field::Make("item", int32()));
  auto lists = ArrayData::Make(type, 3, {ValidityOf("101"), BufferOf<int32_t>({1, 0, 0}), BufferOf<int32_t>({3, 0, 2})}, 1,
                               0, {values});
  ASSERT_TRUE(ValidateFull(*lists).ok()) << ValidateFull(*lists).ToString();
  EXPECT_EQ(ArrayToString(*lists), "[[2, 3, 4], null, [1, 2]]");
  EXPECT_EQ(ArrayToString(*lists->Slice(2, 1)), "[[1, 2]]");
  auto as_list = ArrayData::Make(list(Field::Make("item", int32())), 1, {nullptr, BufferOf<int32_t>({0, 2})}, 0, 0, {values});
  auto as_view = ArrayData::Make(type, 1, {nullptr, BufferOf<int32_t>({0}), BufferOf<int32_t>({2})}, 0, 0, {values});
  EXPECT_TRUE(ArrayEquals(*as_view, *lists->Slice(2, 1)));
  EXPECT_FALSE(ArrayEquals(*as_view, *lists->Slice(0, 1)));

  const auto with = [&](std::vector<int32_t> offsets, std::vector<int32_t> sizes, const char* validity) {
    return ArrayData::Make(type, static_cast<int64_t>(offsets.size()),
                           {ValidityOf(validity), BufferOf(offsets), BufferOf(sizes)}, 0, 0, {values});
  };
  ExpectInvalid(*with({2}, {3}, "1"), "element 0 has offset 2 and size 3, outside the child of 4");
  ExpectInvalid(*with({5}, {0}, "1"), "offset 5 and size 0");
  ExpectInvalid(*with({-1}, {1}, "1"), "offset -1");
  ExpectInvalid(*with({0}, {-1}, "1"), "size -1");
  ExpectInvalid(*with({0x7FFFFFFF}, {0x7FFFFFFF}, "1"), "outside the child");
  // A null element must lie inside the child too (the format requires it of every slot).
  auto null_outside = with({9}, {9}, "0");
  null_outside->null_count = 1;
  ExpectInvalid(*null_outside, "element 0 has offset 9");
  auto short_sizes = ArrayData::Make(type, 2, {nullptr, BufferOf<int32_t>({0, 0}), BufferOf<int32_t>({0})}, 0, 0, {values});
  ExpectInvalid(*short_sizes, "sizes buffer of 4 bytes, expected at least 8");

  const DataTypePtr large = large_list_view(Field::Make("item", int32()));
  auto wide = ArrayData::Make(large, 1, {nullptr, BufferOf<int64_t>({int64_t{1} << 40}), BufferOf<int64_t>({1})}, 0, 0,
                              {values});
  ExpectInvalid(*wide, "outside the child of 4");
}

TEST(NewerTypesTest, RunsFindTheirValues) {
  auto values = ArrayData::Make(utf8(), 3, {ValidityOf("101"), BufferOf<int32_t>({0, 1, 1, 2}), Bytes("ab")}, 1);
  const DataTypePtr type = run_end_encoded(int32(), utf8());
  auto runs = ArrayData::Make(type, 6, {}, 0, 0, {ArrayData::Make(int32(), 3, {nullptr, BufferOf<int32_t>({3, 4, 6})}, 0),
                                                  values});
  ASSERT_TRUE(ValidateFull(*runs).ok()) << ValidateFull(*runs).ToString();
  EXPECT_EQ(ArrayToString(*runs), R"(["a", "a", "a", null, "b", "b"])");
  EXPECT_EQ(ArrayToString(*runs->Slice(2, 3)), R"(["a", null, "b"])");
  EXPECT_EQ(RunIndex(*runs, 0), 0);
  EXPECT_EQ(RunIndex(*runs, 2), 0);
  EXPECT_EQ(RunIndex(*runs, 3), 1);
  EXPECT_EQ(RunIndex(*runs, 5), 2);
  EXPECT_EQ(RunIndex(*runs->Slice(4, 2), 0), 2);
  EXPECT_EQ(runs->Slice(2, 3)->null_count, 0);  // the nulls are the values'

  // The same values in other runs are equal; CompactRuns keeps the values of a slice.
  int64_t first_run = -1;
  EXPECT_EQ(VisibleRunEnds(*runs->Slice(2, 3), &first_run), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(first_run, 0);
  auto compact = CompactRuns(*runs->Slice(2, 3));
  ASSERT_TRUE(compact.ok());
  ASSERT_TRUE(ValidateFull(**compact).ok()) << ValidateFull(**compact).ToString();
  EXPECT_EQ((*compact)->offset, 0);
  EXPECT_TRUE(ArrayEquals(**compact, *runs->Slice(2, 3)));
  EXPECT_FALSE(ArrayEquals(**compact, *runs->Slice(1, 3)));
  EXPECT_EQ(MakeRunEnds(int16(), {40000}).status().code(), StatusCode::kDataError);
}

TEST(NewerTypesTest, HostileRunsAreDataErrors) {
  auto values = ArrayData::Make(int8(), 3, {nullptr, BufferOf<int8_t>({1, 2, 3})}, 0);
  const auto with = [&](std::vector<int32_t> ends, int64_t length) {
    return ArrayData::Make(run_end_encoded(int32(), int8()), length, {}, 0, 0,
                           {ArrayData::Make(int32(), static_cast<int64_t>(ends.size()), {nullptr, BufferOf(ends)}, 0),
                            values});
  };
  ExpectInvalid(*with({2, 2, 5}, 5), "run end 1 (2) is not above the one before (2)");
  ExpectInvalid(*with({3, 2, 5}, 5), "run end 1 (2) is not above");
  ExpectInvalid(*with({0, 2, 5}, 5), "run end 0 (0) is not above the one before (0)");
  ExpectInvalid(*with({-4, 2, 5}, 5), "run end 0 (-4)");
  ExpectInvalid(*with({1, 2, 3}, 5), "the runs end before offset + length 5");
  ExpectInvalid(*with({}, 1), "the runs end before");
  EXPECT_TRUE(ValidateFull(*with({1, 2, 3}, 3)->Slice(1, 2)).ok());
  ExpectInvalid(*with({1, 2, 3, 4}, 4), "4 run ends but 3 values");

  auto with_nulls = with({1, 2, 3}, 3);
  with_nulls->null_count = 1;
  ExpectInvalid(*with_nulls, "no nulls of its own");
  auto null_run_end = with({1, 2, 3}, 3);
  null_run_end->children[0] = ArrayData::Make(int32(), 3, {ValidityOf("110"), BufferOf<int32_t>({1, 2, 3})}, 1);
  ExpectInvalid(*null_run_end, "run ends have nulls");
  auto byte_ends = ArrayData::Make(run_end_encoded(int8(), int8()), 1, {}, 0, 0,
                                   {ArrayData::Make(int8(), 1, {nullptr, BufferOf<int8_t>({1})}, 0), values});
  ExpectInvalid(*byte_ends, "not int16, int32 or int64");
  auto too_long = ArrayData::Make(run_end_encoded(int16(), int8()), 40000, {}, 0, 0,
                                  {ArrayData::Make(int16(), 1, {nullptr, BufferOf<int16_t>({32767})}, 0), values});
  ExpectInvalid(*too_long, "exceeds the run end type");
  auto with_buffer = with({1, 2, 3}, 3);
  with_buffer->buffers.push_back(nullptr);
  ExpectInvalid(*with_buffer, "1 buffers, expected 0");
}

TEST(NewerTypesTest, NarrowDecimalsAreFixedWidth) {
  auto small = ArrayData::Make(decimal(9, 2, 32), 2, {nullptr, BufferOf<int32_t>({-1250, 5})}, 0);
  ASSERT_TRUE(ValidateFull(*small).ok());
  EXPECT_FALSE(ArrayEquals(*small->Slice(0, 1), *small->Slice(1, 1)));
  ExpectInvalid(*ArrayData::Make(decimal(9, 2, 32), 3, {nullptr, BufferOf<int32_t>({1, 2})}, 0),
                "values buffer of 8 bytes, expected at least 12");
  ExpectInvalid(*ArrayData::Make(decimal(18, 2, 64), 2, {nullptr, BufferOf<int32_t>({1, 2})}, 0),
                "values buffer of 8 bytes, expected at least 16");
}

}  // namespace
}  // namespace recflow
