// ValueStats: NaN left out, nothing valid gives NaN statistics, parts merged in order equal one pass over all values.
#include "recflow/raster/value_stats.h"

#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

namespace recflow::raster {
namespace {

TEST(ValueStatsTest, LeavesOutNaNAndComputesPopulationStatistics) {
  ValueStats s;
  for (const double v : {2.0, std::numeric_limits<double>::quiet_NaN(), 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) s.Add(v);
  EXPECT_EQ(s.count(), 8);
  EXPECT_EQ(s.min(), 2.0);
  EXPECT_EQ(s.max(), 9.0);
  EXPECT_DOUBLE_EQ(s.mean(), 5.0);
  EXPECT_DOUBLE_EQ(s.std(), 2.0);
}

TEST(ValueStatsTest, NothingValidIsNaN) {
  ValueStats s;
  s.Add(std::numeric_limits<double>::quiet_NaN());
  ValueStats empty;
  s.Merge(empty);
  EXPECT_EQ(s.count(), 0);
  EXPECT_TRUE(std::isnan(s.min()) && std::isnan(s.max()) && std::isnan(s.mean()) && std::isnan(s.std()));
}

TEST(ValueStatsTest, MergedPartsEqualOnePass) {
  std::vector<double> values;
  for (int i = 0; i < 10000; ++i) values.push_back(1e4 + std::sin(i * 0.37) * 300 + (i % 17));
  ValueStats whole;
  for (const double v : values) whole.Add(v);
  ValueStats merged;
  for (size_t start = 0; start < values.size(); start += 777) {
    ValueStats part;
    for (size_t i = start; i < std::min(values.size(), start + 777); ++i) part.Add(values[i]);
    merged.Merge(part);
  }
  ValueStats first_empty;
  first_empty.Merge(merged);
  for (const ValueStats* s : {&merged, &first_empty}) {
    EXPECT_EQ(s->count(), whole.count());
    EXPECT_EQ(s->min(), whole.min());
    EXPECT_EQ(s->max(), whole.max());
    EXPECT_NEAR(s->mean(), whole.mean(), 1e-9);
    EXPECT_NEAR(s->std(), whole.std(), 1e-9);
  }
}

}  // namespace
}  // namespace recflow::raster
