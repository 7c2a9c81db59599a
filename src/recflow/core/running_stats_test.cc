// RunningStats: Welford's values, Chan's merge equal to one pass, empty parts, and the order of merges fixed.
#include "recflow/core/running_stats.h"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

namespace recflow {
namespace {

TEST(RunningStatsTest, PopulationStatisticsOfTheValues) {
  RunningStats s;
  for (const double v : {2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0}) s.Update(v);
  EXPECT_EQ(s.count, 8);
  EXPECT_EQ(s.min, 2.0);
  EXPECT_EQ(s.max, 9.0);
  EXPECT_EQ(s.mean, 5.0);
  EXPECT_EQ(s.variance(), 4.0);
  EXPECT_EQ(RunningStats().variance(), 0.0);
}

TEST(RunningStatsTest, MergedPartsEqualOnePassAndEmptyPartsChangeNothing) {
  std::vector<double> values;
  for (int i = 0; i < 10000; ++i) values.push_back(1e4 + std::sin(i * 0.37) * 300 + (i % 17));
  RunningStats whole;
  for (const double v : values) whole.Update(v);
  RunningStats merged;
  for (size_t start = 0; start < values.size(); start += 777) {
    RunningStats part;
    for (size_t i = start; i < std::min(values.size(), start + 777); ++i) part.Update(values[i]);
    merged.Merge(part);
    merged.Merge(RunningStats());
  }
  EXPECT_EQ(merged.count, whole.count);
  EXPECT_EQ(merged.min, whole.min);
  EXPECT_EQ(merged.max, whole.max);
  EXPECT_NEAR(merged.mean, whole.mean, 1e-9);
  EXPECT_NEAR(merged.variance(), whole.variance(), 1e-6);
  RunningStats into_empty;
  into_empty.Merge(merged);
  EXPECT_EQ(into_empty.mean, merged.mean);  // a copy, to the bit
  EXPECT_EQ(into_empty.m2, merged.m2);
}

}  // namespace
}  // namespace recflow
