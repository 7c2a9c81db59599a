// ValueStats: NaN left out of values and merges, nothing valid gives NaN statistics.
#include "recflow/raster/value_stats.h"

#include <cmath>
#include <limits>

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

TEST(ValueStatsTest, MergesLeaveNaNOut) {
  // The arithmetic is RunningStats' (core_running_stats_test: merged parts equal one pass).
  ValueStats a, b;
  for (const double v : {1.0, std::numeric_limits<double>::quiet_NaN(), 3.0}) a.Add(v);
  for (const double v : {std::numeric_limits<double>::quiet_NaN(), 5.0}) b.Add(v);
  a.Merge(b);
  EXPECT_EQ(a.count(), 3);
  EXPECT_EQ(a.min(), 1.0);
  EXPECT_EQ(a.max(), 5.0);
  EXPECT_DOUBLE_EQ(a.mean(), 3.0);
}

}  // namespace
}  // namespace recflow::raster
