// Tests of the fitted ops: Moments (merge = single pass), StandardScale, MinMaxScale.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "recflow/ops/columns/columns_test_util_internal.h"
#include "recflow/ops/columns/moments.h"
#include "recflow/ops/columns/scale.h"

namespace recflow::ops {
namespace {

using testing::BatchOf;
using testing::Numbers;
using testing::SameArray;
using testing::Strings;

// Reference values from scikit-learn 1.2.1 (python3-sklearn): StandardScaler and MinMaxScaler
// fitted on kData.
const std::vector<double> kData = {3.5, -1.0, 2.0, 1e6, 7.25, 0.0, -3.0, 42.0};
const double kSklearnMean = 125006.34375;
const double kSklearnVar = 109373414252.6084;
const std::vector<double> kSklearnStandard = {-0.3779758117070681,  -0.37798941852673446, -0.37798034731362357,
                                              2.6457513088347566,   -0.37796447269067956, -0.37798639478903084,
                                              -0.3779954660021417,  -0.3778593978054786};
const std::vector<double> kSklearnMinMax = {6.4999805000585e-06, 1.999994000018e-06,    4.999985000045e-06,
                                            1.0,                 1.024996925009225e-05, 2.999991000027e-06,
                                            0.0,                 4.4999865000405e-05};

std::shared_ptr<ArrayData> DataColumn() {
  std::vector<std::optional<double>> values(kData.begin(), kData.end());
  return Numbers<double>(values);
}

const double* Values(const ArrayData& data) { return data.GetValues<double>(1); }

TEST(MomentsTest, MatchesScikitLearn) {
  Moments m;
  ASSERT_TRUE(m.Add(*DataColumn()).ok());
  EXPECT_EQ(m.count, 8);
  EXPECT_NEAR(m.mean, kSklearnMean, 1e-9);
  EXPECT_NEAR(m.variance(), kSklearnVar, kSklearnVar * 1e-13);
  EXPECT_EQ(m.min, -3.0);
  EXPECT_EQ(m.max, 1e6);
  auto standard = StandardScaleColumn(*DataColumn(), m);
  auto min_max = MinMaxScaleColumn(*DataColumn(), m);
  ASSERT_TRUE(standard.ok() && min_max.ok());
  for (size_t i = 0; i < kData.size(); ++i) {
    EXPECT_NEAR(Values(**standard)[i], kSklearnStandard[i], 1e-12) << i;
    EXPECT_NEAR(Values(**min_max)[i], kSklearnMinMax[i], 1e-15) << i;
  }
}

TEST(MomentsTest, MergedPartsEqualOnePass) {
  // Skewed data: many small values, a few huge ones, split into uneven parts (one empty).
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> skewed(0.0, 3.0);
  std::vector<std::optional<double>> values;
  for (int i = 0; i < 5000; ++i) values.push_back(i % 97 == 0 ? std::nullopt : std::optional<double>(skewed(rng)));
  auto column = Numbers<double>(values);
  Moments single;
  ASSERT_TRUE(single.Add(*column).ok());
  const int64_t cuts[] = {0, 1, 1, 700, 701, 4999, 5000};
  Moments merged;
  for (size_t k = 0; k + 1 < std::size(cuts); ++k) {
    Moments part;
    ASSERT_TRUE(part.Add(*column->Slice(cuts[k], cuts[k + 1] - cuts[k])).ok());
    merged.Merge(part);
  }
  EXPECT_EQ(merged.count, single.count);
  EXPECT_EQ(merged.min, single.min);
  EXPECT_EQ(merged.max, single.max);
  EXPECT_NEAR(merged.mean, single.mean, std::abs(single.mean) * 1e-12);
  EXPECT_NEAR(merged.m2, single.m2, single.m2 * 1e-12);
  // Merging into or from an empty accumulator changes nothing.
  Moments empty;
  Moments copy = single;
  copy.Merge(empty);
  empty.Merge(single);
  EXPECT_EQ(copy.mean, single.mean);
  EXPECT_EQ(empty.m2, single.m2);
}

TEST(MomentsTest, IntegersNullsAndTypeErrors) {
  Moments m;
  ASSERT_TRUE(m.Add(*Numbers<int8_t>({-128, std::nullopt, 127})).ok());
  ASSERT_TRUE(m.Add(*Numbers<uint64_t>({1})).ok());
  EXPECT_EQ(m.count, 3);
  EXPECT_EQ(m.min, -128);
  EXPECT_EQ(m.max, 127);
  EXPECT_EQ(m.Add(*Strings({"x"})).code(), StatusCode::kTypeError);
  Moments none;
  EXPECT_EQ(none.stddev(), 0.0);
}

TEST(ScaleTest, StandardScaleSemantics) {
  Moments m;
  ASSERT_TRUE(m.Add(*Numbers<int32_t>({1, 2, 3, 4})).ok());
  auto out = StandardScaleColumn(*Numbers<int32_t>({1, std::nullopt, 4})->Slice(0, 3), m);
  ASSERT_TRUE(out.ok());
  const double sd = std::sqrt(1.25);
  EXPECT_TRUE(SameArray(**out, *Numbers<double>({(1 - 2.5) * (1 / sd), std::nullopt, (4 - 2.5) * (1 / sd)})));
  // Zero spread: x - mean.
  Moments constant;
  ASSERT_TRUE(constant.Add(*Numbers<double>({5, 5})).ok());
  auto flat = StandardScaleColumn(*Numbers<double>({5, 6}), constant);
  ASSERT_TRUE(flat.ok());
  EXPECT_TRUE(SameArray(**flat, *Numbers<double>({0, 1})));
  auto flat_mm = MinMaxScaleColumn(*Numbers<double>({5, 6}), constant);
  ASSERT_TRUE(flat_mm.ok());
  EXPECT_TRUE(SameArray(**flat_mm, *Numbers<double>({0, 0})));
  // Nothing fitted: standard scale is the identity, min-max gives 0.
  auto unfitted = StandardScaleColumn(*Numbers<int64_t>({3}), Moments());
  ASSERT_TRUE(unfitted.ok());
  EXPECT_TRUE(SameArray(**unfitted, *Numbers<double>({3})));
  EXPECT_FALSE(StandardScaleColumn(*Strings({"x"}), m).ok());
}

TEST(ScaleTest, BatchLevel) {
  auto batch = BatchOf({{"a", Numbers<int64_t>({0, 10})}, {"s", Strings({"x", "y"})}, {"b", Numbers<float>({1, 3})}});
  Moments a;
  Moments b;
  ASSERT_TRUE(a.Add(*batch->column_data(0)).ok());
  ASSERT_TRUE(b.Add(*batch->column_data(2)).ok());
  auto scaled = MinMaxScale(*batch, {"a", "b"}, {a, b});
  ASSERT_TRUE(scaled.ok()) << scaled.status().ToString();
  EXPECT_EQ((*scaled)->schema()->ToString(), "a: float64\ns: utf8\nb: float64");
  EXPECT_TRUE(SameArray(*(*scaled)->column_data(0), *Numbers<double>({0, 1})));
  EXPECT_TRUE(SameArray(*(*scaled)->column_data(2), *Numbers<double>({0, 1})));
  auto standard = StandardScale(*batch, {"b"}, {b});
  ASSERT_TRUE(standard.ok());
  EXPECT_TRUE(SameArray(*(*standard)->column_data(2), *Numbers<double>({-1, 1})));
  EXPECT_FALSE(StandardScale(*batch, {"a"}, {}).ok());
  auto missing = StandardScale(*batch, {"zz"}, {a});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("(columns: a, s, b)"), std::string::npos);
  auto wrong_type = StandardScale(*batch, {"s"}, {a});
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_EQ(wrong_type.status().code(), StatusCode::kTypeError);
}

TEST(ScaleTest, AScalerResolvedOnceAppliesToEveryBatchOfItsSchema) {
  auto batch = BatchOf({{"a", Numbers<int64_t>({0, 10, 5})}, {"s", Strings({"x", "y", "z"})}});
  Moments a;
  ASSERT_TRUE(a.Add(*batch->column_data(0)).ok());
  auto scaler = ColumnScaler::Make(batch->schema(), {"a"}, true);
  ASSERT_TRUE(scaler.ok()) << scaler.status().ToString();
  EXPECT_EQ(scaler->output_schema()->ToString(), "a: float64\ns: utf8");
  auto first = scaler->Apply(*batch->Slice(0, 2), {a});
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ((*first)->schema(), scaler->output_schema());
  EXPECT_TRUE(SameArray(*(*first)->column_data(0), *Numbers<double>({0, 1})));
  auto second = scaler->Apply(*batch->Slice(2, 1), {a});
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(SameArray(*(*second)->column_data(0), *Numbers<double>({0.5})));
  auto other = BatchOf({{"a", Numbers<int64_t>({1})}});
  auto refused = scaler->Apply(*other, {a});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("min_max_scale: a batch has columns (a: int64)"), std::string::npos)
      << refused.status().ToString();
  EXPECT_FALSE(scaler->Apply(*batch, {}).ok());
  EXPECT_FALSE(ColumnScaler::Make(batch->schema(), {"zz"}, false).ok());
}

}  // namespace
}  // namespace recflow::ops
