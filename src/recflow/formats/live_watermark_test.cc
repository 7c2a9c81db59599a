// LiveWatermark on a manual clock: the latest event time less the allowance, the minimum over partitions, idle
// partitions following the clock, processing-time tokens when the clock moved; options checked.
#include "recflow/formats/live_watermark.h"

#include <gtest/gtest.h>

#include <string>

namespace recflow {
namespace {

// "c<time>" for a processing-time token, "t<time>" for a watermark.
std::string Text(const std::vector<FlowToken>& tokens) {
  std::string text;
  for (const FlowToken& t : tokens) {
    text += (text.empty() ? "" : " ") + std::string(t.kind == FlowToken::Kind::kWatermark ? "t" : "c") +
            std::to_string(t.time);
  }
  return text;
}

TEST(LiveWatermarkTest, TheMinimumOverPartitionsOfTheLatestEventTimeLessTheAllowance) {
  ManualClock clock(1'000'000);
  LiveWatermark marks(&clock, LiveWatermarkOptions{2000, -1});
  const size_t a = marks.AddPartition();
  const size_t b = marks.AddPartition();
  marks.Observe(a, 50'000);
  EXPECT_EQ(Text(marks.Tick()), "c1000000");  // b has brought nothing: it holds the watermark back
  marks.Observe(b, 30'000);
  marks.Observe(b, 20'000);                   // out of order: the latest stays 30 000
  EXPECT_EQ(Text(marks.Tick()), "t28000");    // the clock did not move: no processing-time token
  clock.Advance(10);
  marks.Observe(b, 90'000);
  EXPECT_EQ(Text(marks.Tick()), "c1000010 t48000");
  marks.EndPartition(a);
  EXPECT_EQ(Text(marks.Tick()), "t88000");
  marks.Observe(b, 60'000);                   // the watermark never goes back
  EXPECT_EQ(Text(marks.Tick()), "");
}

TEST(LiveWatermarkTest, AnIdlePartitionFollowsTheClock) {
  ManualClock clock(1'000'000);
  LiveWatermark marks(&clock, LiveWatermarkOptions{500, 10'000});
  const size_t busy = marks.AddPartition();
  const size_t quiet = marks.AddPartition();  // never brings a row
  marks.Observe(busy, 1'000'000);
  EXPECT_EQ(Text(marks.Tick()), "c1000000");
  clock.Advance(9'999);
  marks.Observe(busy, 1'009'000);
  EXPECT_EQ(Text(marks.Tick()), "c1009999");  // quiet is not idle yet
  clock.Advance(1);
  EXPECT_EQ(Text(marks.Tick()), "c1010000 t1008500");  // quiet idle: now - 500; busy: 1 009 000 - 500
  clock.Advance(20'000);                               // both idle now: the clock less the allowance
  EXPECT_EQ(Text(marks.Tick()), "c1030000 t1029500");
  (void)quiet;
}

TEST(LiveWatermarkTest, OptionsAreChecked) {
  EXPECT_TRUE(LiveWatermarkOptions::Defaults().Validate().ok());
  EXPECT_FALSE((LiveWatermarkOptions{-1, -1}).Validate().ok());
  EXPECT_FALSE((LiveWatermarkOptions{0, 0}).Validate().ok());
}

}  // namespace
}  // namespace recflow
