// Tests of filter expressions: precedence, SQL null semantics, literals per type, error positions.
#include "recflow/ops/columns/predicate.h"

#include <gtest/gtest.h>

#include <cmath>

#include "recflow/ops/columns/columns_test_util_internal.h"

namespace recflow::ops {
namespace {

using testing::BatchOf;
using testing::Bools;
using testing::Numbers;
using testing::Strings;

std::shared_ptr<RecordBatch> People() {
  return BatchOf({
      {"age", Numbers<int64_t>({17, 18, 40, std::nullopt, 65, 30})},
      {"country", Strings({"DE", "FR", "DE", "DE", std::nullopt, "US"})},
      {"vip", Bools({false, true, std::nullopt, false, true, false})},
      {"score", Numbers<double>({0.5, std::nan(""), 2.0, 3.0, -1.0, 10.0})},
      {"day", Numbers<int32_t>({0, 19782, 19783, std::nullopt, 1, 2}, date32())},
      {"weird name", Numbers<uint64_t>({1, 2, 3, 4, 5, 18446744073709551615ULL})},
  });
}

std::vector<int64_t> Rows(const std::string& text) {
  auto batch = People();
  auto predicate = ParsePredicate(text, *batch->schema());
  EXPECT_TRUE(predicate.ok()) << text << ": " << predicate.status().ToString();
  if (!predicate.ok()) return {-1};
  auto rows = (*predicate)->SelectRows(*batch);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  return rows.ok() ? *rows : std::vector<int64_t>{-1};
}

std::string Canonical(const std::string& text) {
  auto predicate = ParsePredicate(text, *People()->schema());
  return predicate.ok() ? (*predicate)->ToString() : predicate.status().ToString();
}

std::string ErrorOf(const std::string& text) {
  auto predicate = ParsePredicate(text, *People()->schema());
  return predicate.ok() ? "(parsed)" : predicate.status().message();
}

using V = std::vector<int64_t>;

TEST(PredicateTest, TheIssueExample) {
  const std::string text = "age >= 18 and (country == 'DE' or not vip)";
  EXPECT_EQ(Canonical(text), "((age >= 18) and ((country == 'DE') or (not vip)))");
  // Row 2: DE (true) or not null → true. Row 3: age null → unknown. Row 4: country null, vip
  // true → unknown or false → unknown. Row 5: US, vip false → true.
  EXPECT_EQ(Rows(text), (V{2, 5}));
}

TEST(PredicateTest, PrecedenceNotAndOr) {
  EXPECT_EQ(Canonical("vip or age > 1 and age < 2"), "(vip or ((age > 1) and (age < 2)))");
  EXPECT_EQ(Canonical("not vip and vip"), "((not vip) and vip)");
  EXPECT_EQ(Canonical("not not vip"), "(not (not vip))");
  EXPECT_EQ(Canonical("(vip or vip) and vip"), "((vip or vip) and vip)");
  EXPECT_EQ(Canonical("vip or vip or vip"), "((vip or vip) or vip)");
  // Keywords are whole words: "notable" is a column name, not "not able".
  EXPECT_NE(ErrorOf("vip or notable").find("no column 'notable'"), std::string::npos);
  EXPECT_EQ(Canonical("age IS NOT NULL AND vip"), "((age is not null) and vip)");
  EXPECT_EQ(Canonical("18 <= age"), "(age >= 18)");
  EXPECT_EQ(Canonical("country not in ['DE', \"FR\"]"), "(not (country in ['DE', 'FR']))");
  EXPECT_EQ(Canonical("`weird name` = 3"), "(weird name == 3)");
  EXPECT_EQ(Canonical(R"(country == 'it\'s' or country == "a\\b")"), R"(((country == 'it\'s') or (country == 'a\\b')))");
}

TEST(PredicateTest, SqlNullSemantics) {
  EXPECT_EQ(Rows("age > 0"), (V{0, 1, 2, 4, 5}));
  EXPECT_EQ(Rows("not (age > 20)"), (V{0, 1}));  // null age stays unknown under not
  EXPECT_EQ(Rows("age is null"), (V{3}));
  EXPECT_EQ(Rows("age is not null and country is null"), (V{4}));
  EXPECT_EQ(Rows("vip"), (V{1, 4}));
  EXPECT_EQ(Rows("not vip"), (V{0, 3, 5}));
  EXPECT_EQ(Rows("vip or age > 35"), (V{1, 2, 4}));            // null vip or true → true
  EXPECT_EQ(Rows("country != 'DE'"), (V{1, 5}));                // null country excluded
  EXPECT_EQ(Rows("country not in ['DE']"), (V{1, 5}));
}

TEST(PredicateTest, NumbersStringsDatesBools) {
  EXPECT_EQ(Rows("age in [17, 65, 99]"), (V{0, 4}));
  EXPECT_EQ(Rows("score >= 2"), (V{2, 3, 5}));          // NaN is unordered
  EXPECT_EQ(Rows("score != 2.0"), (V{0, 1, 3, 4, 5}));  // NaN != 2 holds
  EXPECT_EQ(Rows("age < 17.5"), (V{0}));
  EXPECT_EQ(Rows("age == -1e3"), (V{}));
  EXPECT_EQ(Rows("country >= 'E'"), (V{1, 5}));
  EXPECT_EQ(Rows("day >= '2024-02-29'"), (V{1, 2}));
  EXPECT_EQ(Rows("vip == false"), (V{0, 3, 5}));
  EXPECT_EQ(Rows("`weird name` > 9223372036854775807"), (V{5}));  // uint64 compared exactly
  EXPECT_EQ(Rows("`weird name` >= 5 and `weird name` <= 5"), (V{4}));
}

TEST(PredicateTest, ErrorsGivePositions) {
  EXPECT_EQ(ErrorOf("age >= "), "filter \"age >= \": at character 8: expected a value (number, 'text', true, false), found the end");
  EXPECT_NE(ErrorOf("age >= 18 and (vip").find("at character 19: expected ')' to close the '(' at character 15"),
            std::string::npos)
      << ErrorOf("age >= 18 and (vip");
  EXPECT_NE(ErrorOf("agee > 1").find("at character 1: filter: no column 'agee' (columns: age, country"), std::string::npos)
      << ErrorOf("agee > 1");
  EXPECT_NE(ErrorOf("age > 'x'").find("at character 7: cannot compare int64 column with 'x'"), std::string::npos)
      << ErrorOf("age > 'x'");
  EXPECT_NE(ErrorOf("age == null").find("at character 8: comparisons with null"), std::string::npos) << ErrorOf("age == null");
  EXPECT_NE(ErrorOf("age").find("at character 4: expected a comparison"), std::string::npos) << ErrorOf("age");
  EXPECT_NE(ErrorOf("vip < true").find("bool columns take == and !="), std::string::npos);
  EXPECT_NE(ErrorOf("country == 'DE").find("at character 12: unterminated text"), std::string::npos) << ErrorOf("country == 'DE");
  EXPECT_NE(ErrorOf("age > 1 vip").find("at character 9: expected 'and', 'or' or the end, found 'vip'"), std::string::npos);
  EXPECT_NE(ErrorOf("age ! 1").find("at character 5"), std::string::npos);
  EXPECT_NE(ErrorOf("age in [1,").find("at character 11"), std::string::npos) << ErrorOf("age in [1,");
  EXPECT_NE(ErrorOf("day > 'yesterday'").find("at character 7: the value 'yesterday' is not a valid date32"),
            std::string::npos)
      << ErrorOf("day > 'yesterday'");
  EXPECT_NE(ErrorOf("  ").find("at character 1: the filter is empty"), std::string::npos);
  EXPECT_NE(ErrorOf("age > 99999999999999999999").find("out of range"), std::string::npos);
  // Bounded nesting and length.
  EXPECT_NE(ErrorOf(std::string(100, '(') + "vip" + std::string(100, ')')).find("nested deeper than 64"), std::string::npos);
  std::string chain = "vip";
  while (chain.size() < 9000) chain += " or vip";
  EXPECT_EQ(Rows(chain), (V{1, 4}));
  EXPECT_NE(ErrorOf(chain + chain).find("longer than 10000"), std::string::npos);
}

TEST(PredicateTest, FilterTakesRowsAndChecksTheBatch) {
  auto batch = People();
  auto predicate = ParsePredicate("country == 'DE' and age is not null", *batch->schema());
  ASSERT_TRUE(predicate.ok());
  auto out = Filter(*batch, **predicate);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)->num_rows(), 2);
  EXPECT_TRUE((*out)->ValidateFull().ok());
  // An empty batch selects nothing; a batch of another shape is refused.
  auto empty = (*predicate)->SelectRows(*batch->Slice(0, 0));
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  auto other = BatchOf({{"age", Strings({"x"})}});
  EXPECT_FALSE((*predicate)->SelectRows(*other).ok());
  // Sliced batches evaluate with their offsets.
  auto sliced = (*predicate)->SelectRows(*batch->Slice(2, 4));
  ASSERT_TRUE(sliced.ok());
  EXPECT_EQ(*sliced, (V{0}));
}

}  // namespace
}  // namespace recflow::ops
