// Clock: the system clock is epoch milliseconds and never goes back; a manual clock moves only forward, when told.
#include "recflow/core/clock.h"

#include <gtest/gtest.h>

namespace recflow {
namespace {

TEST(ClockTest, TheSystemClockIsEpochMillisecondsAndNeverGoesBack) {
  const int64_t first = Clock::System()->NowMillis();
  EXPECT_GT(first, int64_t{1'600'000'000'000});  // after September 2020
  for (int i = 0; i < 1000; ++i) EXPECT_GE(Clock::System()->NowMillis(), first);
}

TEST(ClockTest, AManualClockMovesOnlyForwardWhenTold) {
  ManualClock clock(1000);
  EXPECT_EQ(clock.NowMillis(), 1000);
  clock.Advance(500);
  EXPECT_EQ(clock.NowMillis(), 1500);
  clock.Set(1200);  // back: ignored
  EXPECT_EQ(clock.NowMillis(), 1500);
  clock.Set(9000);
  EXPECT_EQ(clock.NowMillis(), 9000);
}

}  // namespace
}  // namespace recflow
