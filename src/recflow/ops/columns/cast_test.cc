// Tests of Cast (row errors for overflow and bad text, lists, text formatting) and FillNull.
#include "recflow/ops/columns/cast.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "recflow/columnar/validate.h"
#include "recflow/ops/columns/columns_test_util_internal.h"
#include "recflow/ops/columns/fill_null.h"

namespace recflow::ops {
namespace {

using testing::Bools;
using testing::Numbers;
using testing::SameArray;
using testing::StringLists;
using testing::Strings;

std::vector<int64_t> ErrorRows(const RowErrors& errors) {
  std::vector<int64_t> rows;
  for (const RowError& e : errors.errors()) rows.push_back(e.row);
  return rows;
}

std::shared_ptr<ArrayData> CastOk(const ArrayData& in, const DataTypePtr& to, RowErrors& errors) {
  auto out = Cast(in, to, errors);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  if (!out.ok()) return nullptr;
  EXPECT_TRUE(ValidateFull(**out).ok());
  return *out;
}

TEST(CastTest, IntegerNarrowingReportsOverflow) {
  RowErrors errors;
  auto out = CastOk(*Numbers<int64_t>({1, 300, std::nullopt, -1, 255}), uint8(), errors);
  EXPECT_TRUE(SameArray(*out, *Numbers<uint8_t>({1, std::nullopt, std::nullopt, std::nullopt, 255})));
  EXPECT_EQ(ErrorRows(errors), (std::vector<int64_t>{1, 3}));
  EXPECT_NE(errors.errors()[0].status.message().find("cannot cast 300 to uint8: out of range"), std::string::npos)
      << errors.errors()[0].status.ToString();
}

TEST(CastTest, Int64ExtremesAndUnsigned) {
  RowErrors errors;
  const int64_t min = std::numeric_limits<int64_t>::min();
  auto out = CastOk(*Numbers<int64_t>({min, 0}), uint64(), errors);
  EXPECT_EQ(ErrorRows(errors), (std::vector<int64_t>{0}));
  RowErrors back_errors;
  auto back = CastOk(*Numbers<uint64_t>({std::numeric_limits<uint64_t>::max(), 7}), int64(), back_errors);
  EXPECT_TRUE(SameArray(*back, *Numbers<int64_t>({std::nullopt, 7})));
  EXPECT_EQ(ErrorRows(back_errors), (std::vector<int64_t>{0}));
}

TEST(CastTest, FloatToIntegerNeedsIntegralFiniteInRange) {
  RowErrors errors;
  const double nan = std::nan("");
  auto out = CastOk(*Numbers<double>({2.0, 2.5, nan, 9.3e18, -9.223372036854775808e18, 1e300}), int64(), errors);
  EXPECT_TRUE(SameArray(*out, *Numbers<int64_t>({2, std::nullopt, std::nullopt, std::nullopt,
                                                  std::numeric_limits<int64_t>::min(), std::nullopt})));
  EXPECT_EQ(ErrorRows(errors), (std::vector<int64_t>{1, 2, 3, 5}));
  EXPECT_NE(errors.errors()[0].status.message().find("not an integer"), std::string::npos);
}

TEST(CastTest, Float64ToFloat32Overflow) {
  RowErrors errors;
  const double inf = std::numeric_limits<double>::infinity();
  auto out = CastOk(*Numbers<double>({1.5, 1e39, -inf, std::nullopt}), float32(), errors);
  EXPECT_TRUE(SameArray(*out, *Numbers<float>({1.5f, std::nullopt, -std::numeric_limits<float>::infinity(), std::nullopt})));
  EXPECT_EQ(ErrorRows(errors), (std::vector<int64_t>{1}));
}

TEST(CastTest, BoolAndNumbers) {
  RowErrors errors;
  EXPECT_TRUE(SameArray(*CastOk(*Bools({true, false, std::nullopt}), int32(), errors),
                        *Numbers<int32_t>({1, 0, std::nullopt})));
  EXPECT_TRUE(SameArray(*CastOk(*Numbers<double>({0.0, -2.5, std::nullopt}), boolean(), errors),
                        *Bools({false, true, std::nullopt})));
  EXPECT_TRUE(errors.empty());
}

TEST(CastTest, ParsesText) {
  RowErrors errors;
  auto ints = CastOk(*Strings({"42", " -7 ", "abc", std::nullopt, "1e3", "1.5", "99999999999999999999"}), int64(), errors);
  EXPECT_TRUE(SameArray(*ints, *Numbers<int64_t>({42, -7, std::nullopt, std::nullopt, 1000, std::nullopt, std::nullopt})));
  EXPECT_EQ(ErrorRows(errors), (std::vector<int64_t>{2, 5, 6}));
  EXPECT_NE(errors.errors()[0].status.message().find("cannot parse 'abc' as int64"), std::string::npos);

  RowErrors float_errors;
  auto floats = CastOk(*Strings({"0.25", "inf", "x"}), float32(), float_errors);
  EXPECT_TRUE(SameArray(*floats, *Numbers<float>({0.25f, std::numeric_limits<float>::infinity(), std::nullopt})));
  EXPECT_EQ(ErrorRows(float_errors), (std::vector<int64_t>{2}));

  RowErrors bool_errors;
  auto bools = CastOk(*Strings({"true", "FALSE", "yes"}), boolean(), bool_errors);
  EXPECT_TRUE(SameArray(*bools, *Bools({true, false, std::nullopt})));
  EXPECT_EQ(ErrorRows(bool_errors), (std::vector<int64_t>{2}));
}

TEST(CastTest, ParsesDatesAndTimestamps) {
  RowErrors errors;
  auto dates = CastOk(*Strings({"1970-01-02", "2024-02-29", "2024-02-30", "2024-01-01T12:00:00"}), date32(), errors);
  EXPECT_TRUE(SameArray(*dates, *Numbers<int32_t>({1, 19782, std::nullopt, std::nullopt}, date32())));
  EXPECT_EQ(ErrorRows(errors), (std::vector<int64_t>{2, 3}));

  RowErrors ts_errors;
  auto ms = CastOk(*Strings({"1970-01-01T00:00:01.5Z", "1970-01-01T00:00:00.0001Z", "1970-01-01 01:00:00+01:00"}),
                   timestamp(TimeUnit::kMilli), ts_errors);
  EXPECT_TRUE(SameArray(*ms, *Numbers<int64_t>({1500, std::nullopt, 0}, timestamp(TimeUnit::kMilli))));
  EXPECT_EQ(ErrorRows(ts_errors), (std::vector<int64_t>{1}));
}

TEST(CastTest, FormatsText) {
  RowErrors errors;
  EXPECT_TRUE(SameArray(*CastOk(*Numbers<int64_t>({-42, std::nullopt}), utf8(), errors), *Strings({"-42", std::nullopt})));
  EXPECT_TRUE(SameArray(*CastOk(*Numbers<double>({0.1, -0.0, std::nan("")}), utf8(), errors), *Strings({"0.1", "-0.0", "nan"})));
  EXPECT_TRUE(SameArray(*CastOk(*Bools({true, false}), utf8(), errors), *Strings({"true", "false"})));
  EXPECT_TRUE(SameArray(*CastOk(*Numbers<int32_t>({19782}, date32()), utf8(), errors), *Strings({"2024-02-29"})));
  EXPECT_TRUE(SameArray(*CastOk(*Numbers<int64_t>({1500}, timestamp(TimeUnit::kMilli, "UTC")), utf8(), errors),
                        *Strings({"1970-01-01T00:00:01.500Z"})));
  EXPECT_TRUE(errors.empty());
  // Text → number → text round-trips.
  RowErrors round;
  auto parsed = CastOk(*Strings({"0.1", "1e+20", "-3.5"}), float64(), round);
  EXPECT_TRUE(SameArray(*CastOk(*parsed, utf8(), round), *Strings({"0.1", "1e+20", "-3.5"})));
}

TEST(CastTest, BinaryToUtf8ChecksEncoding) {
  RowErrors errors;
  auto out = CastOk(*Strings({"ok", std::string("\xff\xfe", 2)}, binary()), utf8(), errors);
  EXPECT_TRUE(SameArray(*out, *Strings({"ok", std::nullopt})));
  EXPECT_EQ(ErrorRows(errors), (std::vector<int64_t>{1}));
}

TEST(CastTest, ListsElementWise) {
  RowErrors errors;
  auto in = StringLists({std::vector<std::optional<std::string>>{"1", "2"}, std::nullopt,
                         std::vector<std::optional<std::string>>{}, std::vector<std::optional<std::string>>{"x", "4", "y"},
                         std::vector<std::optional<std::string>>{std::nullopt}});
  auto out = CastOk(*in->Slice(0, 5), list(float32()), errors);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->type->ToString(), "list<float32>");
  EXPECT_EQ(out->null_count, 1);
  EXPECT_EQ(ErrorRows(errors), (std::vector<int64_t>{3}));  // once per row
  RowErrors back;
  auto text = CastOk(*out, list(utf8()), back);
  auto expected = StringLists({std::vector<std::optional<std::string>>{"1.0", "2.0"}, std::nullopt,
                               std::vector<std::optional<std::string>>{},
                               std::vector<std::optional<std::string>>{std::nullopt, "4.0", std::nullopt},
                               std::vector<std::optional<std::string>>{std::nullopt}});
  EXPECT_TRUE(SameArray(*text, *expected));
  // A sliced list keeps its rows and reports rows relative to the slice.
  RowErrors sliced_errors;
  auto sliced = CastOk(*in->Slice(2, 2), list(int64()), sliced_errors);
  EXPECT_EQ(sliced->length, 2);
  EXPECT_EQ(ErrorRows(sliced_errors), (std::vector<int64_t>{1}));
}

TEST(CastTest, UnsupportedAndIdentity) {
  RowErrors errors;
  auto in = Numbers<int32_t>({1, 2});
  auto same = Cast(*in, int32(), errors);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ((*same)->buffers[1], in->buffers[1]);
  auto bad = Cast(*in, list(int32()), errors);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kTypeError);
  EXPECT_FALSE(CanCast(*date32(), *boolean()));
  EXPECT_FALSE(CanCast(*date32(), *timestamp(TimeUnit::kSecond)));
  EXPECT_TRUE(CanCast(*null(), *list(utf8())));
  auto nulls = CastOk(*ArrayData::Make(null(), 3, {}, 3), date32(), errors);
  EXPECT_EQ(nulls->null_count, 3);
  auto empty = CastOk(*Strings({}), int8(), errors);
  EXPECT_EQ(empty->length, 0);
}

TEST(FillNullTest, ParsesTextToColumnType) {
  auto ints = FillNull(*Numbers<int64_t>({1, std::nullopt, 3, std::nullopt}), Scalar(std::string("0")));
  ASSERT_TRUE(ints.ok()) << ints.status().ToString();
  EXPECT_TRUE(SameArray(**ints, *Numbers<int64_t>({1, 0, 3, 0})));
  auto strings = FillNull(*Strings({std::nullopt, "a"})->Slice(0, 2), Scalar(std::string("missing")));
  ASSERT_TRUE(strings.ok());
  EXPECT_TRUE(SameArray(**strings, *Strings({"missing", "a"})));
  auto floats = FillNull(*Numbers<double>({std::nullopt, 2.5}), Scalar(int64_t{7}));
  ASSERT_TRUE(floats.ok());
  EXPECT_TRUE(SameArray(**floats, *Numbers<double>({7.0, 2.5})));
  auto dates = FillNull(*Numbers<int32_t>({std::nullopt}, date32()), Scalar(std::string("1970-01-03")));
  ASSERT_TRUE(dates.ok());
  EXPECT_TRUE(SameArray(**dates, *Numbers<int32_t>({2}, date32())));
}

TEST(FillNullTest, RejectsValuesOfAnotherType) {
  auto bad = FillNull(*Numbers<int8_t>({std::nullopt}), Scalar(int64_t{1000}));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("the value 1000 is not a valid int8"), std::string::npos) << bad.status().ToString();
  EXPECT_FALSE(FillNull(*Numbers<int64_t>({std::nullopt}), Scalar(std::string("abc"))).ok());
  EXPECT_FALSE(FillNull(*Numbers<int64_t>({std::nullopt}), Scalar()).ok());
  // A column without nulls is returned as is (the value is still checked).
  auto none = FillNull(*Numbers<int64_t>({1}), Scalar(int64_t{0}));
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(SameArray(**none, *Numbers<int64_t>({1})));
}

TEST(FillNullTest, AFillerPreparedOnceLeavesColumnsWithoutNullsUntouched) {
  auto filler = NullFiller::Make(Scalar(std::string("9")), int64());
  ASSERT_TRUE(filler.ok()) << filler.status().ToString();
  const auto full = Numbers<int64_t>({1, 2});
  auto same = filler->Fill(full);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(*same, full);
  auto filled = filler->Fill(Numbers<int64_t>({std::nullopt, 2, std::nullopt}));
  ASSERT_TRUE(filled.ok()) << filled.status().ToString();
  EXPECT_TRUE(SameArray(**filled, *Numbers<int64_t>({9, 2, 9})));
  EXPECT_EQ(filler->Fill(Strings({std::nullopt})).status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(NullFiller::Make(Scalar(std::string("abc")), int64()).ok());
}

}  // namespace
}  // namespace recflow::ops
