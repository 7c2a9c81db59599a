// Tests of the per-subject watermark: the minimum over subjects, the allowance, idle subjects, the all-idle advance.
#include "recflow/connectors/nats/subject_watermarks.h"

#include <gtest/gtest.h>

namespace recflow::nats {
namespace {

using pipeline::window::kMinTime;

TEST(SubjectWatermarksTest, MinimumOverSubjectsLessTheAllowance) {
  SubjectWatermarks w(/*allowance=*/1000, /*idle=*/-1);
  EXPECT_EQ(w.Current(0), kMinTime);
  w.Observe("scenes.a", 10000, 0);
  EXPECT_EQ(w.Current(0), 9000);
  w.Observe("scenes.b", 4000, 0);  // a new, slower subject holds the watermark where it was
  EXPECT_EQ(w.Current(0), 9000);
  w.Observe("scenes.b", 12000, 0);
  w.Observe("scenes.a", 3000, 0);  // out of order within a subject: its latest stays 10000
  EXPECT_EQ(w.Current(0), 9000);
  w.Observe("scenes.a", 20000, 0);
  EXPECT_EQ(w.Current(0), 11000);
}

TEST(SubjectWatermarksTest, AnIdleSubjectNoLongerHoldsItBack) {
  SubjectWatermarks w(0, /*idle=*/5000);
  w.Observe("a", 1000, 0);
  w.Observe("b", 50000, 4000);
  EXPECT_EQ(w.Current(4000), 1000);
  EXPECT_EQ(w.Current(5000), 50000);  // a silent for 5 s: b alone
  w.Observe("a", 2000, 6000);         // a speaks again: the watermark does not go back
  EXPECT_EQ(w.Current(6000), 50000);
}

TEST(SubjectWatermarksTest, EveryoneIdleAdvancesByProcessingTime) {
  SubjectWatermarks w(/*allowance=*/500, /*idle=*/2000);
  w.Observe("a", 10000, 100);
  w.Observe("b", 7000, 100);
  EXPECT_EQ(w.Current(1000), 6500);
  EXPECT_EQ(w.Current(2100), 11500);  // both idle: the latest 10000 less 500, plus the 2000 ms since the last message
  EXPECT_EQ(w.Current(3100), 12500);
}

}  // namespace
}  // namespace recflow::nats
