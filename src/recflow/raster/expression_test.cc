// band_math expressions: precedence, functions, NaN propagation, and refusals naming the position.
#include "recflow/raster/expression.h"

#include <array>
#include <cmath>

#include <gtest/gtest.h>

namespace recflow::raster {
namespace {

std::vector<double> Eval(const std::string& text, const std::vector<std::string>& names,
                         const std::vector<std::vector<double>>& bands) {
  auto e = Expression::Compile(text, names);
  EXPECT_TRUE(e.ok()) << e.status().ToString();
  if (!e.ok()) return {};
  std::vector<const double*> inputs;
  for (const auto& b : bands) inputs.push_back(b.data());
  const int64_t n = bands.empty() ? 1 : static_cast<int64_t>(bands.front().size());
  std::vector<double> out(static_cast<size_t>(n));
  std::vector<std::vector<double>> scratch;
  e->Evaluate(inputs, n, out.data(), scratch);
  return out;
}

TEST(ExpressionTest, PrecedenceAndAssociativity) {
  EXPECT_EQ(Eval("1 + 2 * 3 - 4 / 2", {}, {}), std::vector<double>{5});
  EXPECT_EQ(Eval("10 - 3 - 2", {}, {}), std::vector<double>{5});
  EXPECT_EQ(Eval("-(2 + 1) * -2", {}, {}), std::vector<double>{6});
  EXPECT_EQ(Eval("1e-3 * 2000", {}, {}), std::vector<double>{2});
  EXPECT_EQ(Eval("max(a, b) - min(a, b) + abs(-a) + sqrt(16)", {"a", "b"}, {{1, 7}, {3, 2}}),
            (std::vector<double>{7, 16}));
  // Constants stay numbers until they meet a band: on either side, and alone.
  EXPECT_EQ(Eval("2 - a / 4 * -1", {"a"}, {{8, 4}}), (std::vector<double>{4, 3}));
  EXPECT_EQ(Eval("sqrt(abs(-9)) * 2", {"a"}, {{8, 4}}), (std::vector<double>{6, 6}));
}

TEST(ExpressionTest, PositiveAndWithinLeaveNanOutsideTheirRange) {
  const double nan = std::nan("");
  const auto positive = Eval("positive(a)", {"a"}, {{2, 0, -1, nan, 1e-300}});
  EXPECT_EQ(positive[0], 2);
  EXPECT_TRUE(std::isnan(positive[1]) && std::isnan(positive[2]) && std::isnan(positive[3]));
  EXPECT_EQ(positive[4], 1e-300);
  const auto within = Eval("within(a, 0, b)", {"a", "b"}, {{0, 1, 1.5, -1e-9, nan, 3}, {1, 1, 1, 1, 1, nan}});
  EXPECT_EQ(within[0], 0);  // both bounds included
  EXPECT_EQ(within[1], 1);
  for (size_t i = 2; i < within.size(); ++i) EXPECT_TRUE(std::isnan(within[i])) << i;
  EXPECT_EQ(Eval("within(2, 1, 3) + positive(4) * 2", {}, {}), std::vector<double>{10});
}

TEST(ExpressionTest, EviMatchesTheFormulaAndPropagatesNan) {
  const double nan = std::nan("");
  const std::vector<double> blue{0.05, 0.1, nan}, red{0.1, 0.2, 0.1}, nir{0.4, 0.3, 0.4};
  const auto out = Eval(EviExpression("blue", "red", "nir"), {"blue", "red", "nir"}, {blue, red, nir});
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_DOUBLE_EQ(out[i], 2.5 * (nir[i] - red[i]) / (nir[i] + 6 * red[i] - 7.5 * blue[i] + 1));
  }
  EXPECT_TRUE(std::isnan(out[2]));
}

TEST(ExpressionTest, EviIsNodataWhereTheIndexIsNotDefined) {
  // Landsat 8 Collection 2 Level-2 DN (blue, red, NIR) as read_raster scales them (DN × 2.75e-5 − 0.2).
  // The first two pixels are valid, the first at the edges of USGS's valid range 7273–43636; the
  // next three have one band just outside it; the last four are cloud pixels of the bundled scene:
  // a denominator of exactly 0 (+inf before the rule), of −8.9e-16 by rounding (−1.8e13), of
  // 1.4e-5 (685), and one below 0 whose quotient (0.79) lands inside [−1, 1].
  const std::vector<std::array<double, 3>> dn{{7273, 20000, 43636}, {8000, 9000, 20000}, {8000, 9000, 43637},
                                              {8000, 7272, 20000},  {43637, 9000, 20000}, {38178, 35188, 35207},
                                              {38756, 35777, 36008}, {37811, 34778, 34915}, {43045, 40332, 40093}};
  std::vector<double> blue, red, nir;
  for (const auto& [b, r, n] : dn) {
    blue.push_back(b * 2.75e-5 + -0.2);
    red.push_back(r * 2.75e-5 + -0.2);
    nir.push_back(n * 2.75e-5 + -0.2);
  }
  const auto out = Eval(EviExpression("blue", "red", "nir"), {"blue", "red", "nir"}, {blue, red, nir});
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_DOUBLE_EQ(out[i], 2.5 * (nir[i] - red[i]) / (nir[i] + 6 * red[i] - 7.5 * blue[i] + 1)) << "pixel " << i;
  }
  for (size_t i = 2; i < out.size(); ++i) EXPECT_TRUE(std::isnan(out[i])) << "pixel " << i << ": " << out[i];
}

TEST(ExpressionTest, MinAndMaxPropagateNanAndNdviMatchesTheFormula) {
  const double nan = std::nan("");
  const auto minmax = Eval("min(a, 1) + max(1, a)", {"a"}, {{nan}});
  EXPECT_TRUE(std::isnan(minmax[0]));  // not the other operand, as fmin/fmax would give
  const auto ndvi = Eval(NdviExpression("r", "n"), {"r", "n"}, {{0.1}, {0.3}});
  EXPECT_DOUBLE_EQ(ndvi[0], 0.2 / 0.4);
}

TEST(ExpressionTest, OnlyTheBandsReadAreUsed) {
  auto e = Expression::Compile("c * 2 + a", {"a", "b", "c"});
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->used_bands(), (std::vector<int>{0, 2}));
}

TEST(ExpressionTest, RefusalsNameThePosition) {
  const std::vector<std::string> names{"red", "nir"};
  EXPECT_EQ(Expression::Compile("red + blue", names).status().message(),
            "expression 'red + blue', at character 7: no band 'blue' (bands: red, nir)");
  EXPECT_EQ(Expression::Compile("red +", names).status().message(),
            "expression 'red +', at character 6: expected a number, a band or '('");
  EXPECT_EQ(Expression::Compile("(red", names).status().message(), "expression '(red', at character 5: expected ')'");
  EXPECT_EQ(Expression::Compile("red $ 2", names).status().message(),
            "expression 'red $ 2', at character 5: unexpected '$'");
  EXPECT_EQ(Expression::Compile("exp(red)", names).status().message(),
            "expression 'exp(red)', at character 1: no function 'exp' (functions: abs, sqrt, min, max, positive, within)");
  EXPECT_EQ(Expression::Compile("max(red)", names).status().message(),
            "expression 'max(red)', at character 8: max takes two arguments");
  EXPECT_EQ(Expression::Compile("within(red, 0)", names).status().message(),
            "expression 'within(red, 0)', at character 14: within takes three arguments");
  EXPECT_EQ(Expression::Compile("positive(red, 0)", names).status().message(),
            "expression 'positive(red, 0)', at character 13: expected ')'");
  EXPECT_FALSE(Expression::Compile(std::string(100, '(') + "1" + std::string(100, ')'), names).ok());
  EXPECT_FALSE(Expression::Compile(std::string(200, '-') + "1", names).ok());
  EXPECT_FALSE(Expression::Compile(std::string(5000, '1'), names).ok());
}

}  // namespace
}  // namespace recflow::raster
