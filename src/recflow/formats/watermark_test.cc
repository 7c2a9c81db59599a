// MinWatermark: partitions hold the minimum until they advance or end; what was passed on never goes back.
#include "recflow/formats/watermark.h"

#include <gtest/gtest.h>

namespace recflow {
namespace {

TEST(MinWatermarkTest, PartitionsHoldTheMinimumUntilTheyAdvanceOrEnd) {
  MinWatermark marks(2);
  EXPECT_EQ(marks.Current(), MinWatermark::kNone);
  marks.Advance(0, 50);
  EXPECT_FALSE(marks.Advanced().has_value());  // partition 1 has said nothing yet
  marks.Advance(1, 30);
  EXPECT_EQ(marks.Advanced(), 30);
  marks.Advance(1, 20);                        // never back
  EXPECT_EQ(marks.Current(), 30);
  const size_t late = marks.Add(10);           // a new partition behind the minimum holds it from now on
  marks.Advance(1, 70);
  EXPECT_EQ(marks.Current(), 10);
  EXPECT_FALSE(marks.Advanced().has_value());  // what was passed on (30) stays passed on
  marks.End(late);
  EXPECT_EQ(marks.Advanced(), 50);
  marks.End(0);
  marks.End(1);
  EXPECT_EQ(marks.Current(), MinWatermark::kEnded);
}

}  // namespace
}  // namespace recflow
