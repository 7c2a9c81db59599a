// band_math expressions: precedence, functions, NaN propagation, and refusals naming the position.
#include "recflow/raster/expression.h"

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
}

TEST(ExpressionTest, EviMatchesTheFormulaAndPropagatesNan) {
  const double nan = std::nan("");
  const std::vector<double> blue{0.05, 0.1, nan}, red{0.1, 0.2, 0.1}, nir{0.4, 0.3, 0.4};
  const auto out = Eval(EviExpression("blue", "red", "nir"), {"blue", "red", "nir"}, {blue, red, nir});
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_DOUBLE_EQ(out[i], 2.5 * (nir[i] - red[i]) / (nir[i] + 6 * red[i] - 7.5 * blue[i] + 1));
  }
  EXPECT_TRUE(std::isnan(out[2]));
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
            "expression 'exp(red)', at character 1: no function 'exp' (functions: abs, sqrt, min, max)");
  EXPECT_EQ(Expression::Compile("max(red)", names).status().message(),
            "expression 'max(red)', at character 8: max takes two arguments");
  EXPECT_FALSE(Expression::Compile(std::string(100, '(') + "1" + std::string(100, ')'), names).ok());
  EXPECT_FALSE(Expression::Compile(std::string(200, '-') + "1", names).ok());
  EXPECT_FALSE(Expression::Compile(std::string(5000, '1'), names).ok());
}

}  // namespace
}  // namespace recflow::raster
