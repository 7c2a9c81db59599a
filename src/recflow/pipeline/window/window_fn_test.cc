// Window assignment (fixed with offset, sliding, sessions' proto-windows, global) and duration parsing.
#include "recflow/pipeline/window/window_fn.h"

#include <gtest/gtest.h>

#include "recflow/pipeline/window/duration.h"

namespace recflow::pipeline::window {
namespace {

std::vector<Window> Assigned(const WindowFn& fn, Millis t) {
  std::vector<Window> out;
  fn.Assign(t, &out);
  return out;
}

TEST(WindowFnTest, FixedWindowsWithOffsetIncludingNegativeTimes) {
  EXPECT_EQ(Assigned(WindowFn::Fixed(10), 0), (std::vector<Window>{{0, 10}}));
  EXPECT_EQ(Assigned(WindowFn::Fixed(10), 9), (std::vector<Window>{{0, 10}}));
  EXPECT_EQ(Assigned(WindowFn::Fixed(10), 10), (std::vector<Window>{{10, 20}}));
  EXPECT_EQ(Assigned(WindowFn::Fixed(10), -1), (std::vector<Window>{{-10, 0}}));
  EXPECT_EQ(Assigned(WindowFn::Fixed(10, 2), 1), (std::vector<Window>{{-8, 2}}));
  EXPECT_EQ(Assigned(WindowFn::Fixed(10, 2), 2), (std::vector<Window>{{2, 12}}));
}

// Beam's SlidingWindowsTest.testSimple facts: size 10 every 5, an element at 7 is in [5, 15) and [0, 10).
TEST(WindowFnTest, SlidingWindowsLatestStartFirst) {
  EXPECT_EQ(Assigned(WindowFn::Sliding(10, 5), 7), (std::vector<Window>{{5, 15}, {0, 10}}));
  EXPECT_EQ(Assigned(WindowFn::Sliding(10, 5), 5), (std::vector<Window>{{5, 15}, {0, 10}}));
  EXPECT_EQ(Assigned(WindowFn::Sliding(10, 5), 4), (std::vector<Window>{{0, 10}, {-5, 5}}));
  // A period longer than the size leaves gaps: an element at 17 is in no window of size 5 every 10.
  EXPECT_EQ(Assigned(WindowFn::Sliding(5, 10), 12), (std::vector<Window>{{10, 15}}));
  EXPECT_TRUE(Assigned(WindowFn::Sliding(5, 10), 17).empty());
  EXPECT_EQ(Assigned(WindowFn::Sliding(5, 10), 21), (std::vector<Window>{{20, 25}}));
}

TEST(WindowFnTest, SessionsAndGlobal) {
  EXPECT_EQ(Assigned(WindowFn::Sessions(10), 15), (std::vector<Window>{{15, 25}}));
  EXPECT_TRUE(WindowFn::Sessions(10).merging());
  EXPECT_FALSE(WindowFn::Fixed(10).merging());
  EXPECT_EQ(Assigned(WindowFn::Global(), 123), (std::vector<Window>{{kMinTime, kGlobalWindowEnd}}));
  // Touching windows do not intersect (Beam's IntervalWindow.intersects).
  EXPECT_FALSE((Window{0, 10}).Intersects(Window{10, 20}));
  EXPECT_TRUE((Window{0, 11}).Intersects(Window{10, 20}));
}

TEST(DurationTest, UnitsAndPlainMilliseconds) {
  EXPECT_EQ(*ParseDuration("500ms"), 500);
  EXPECT_EQ(*ParseDuration("10s"), 10'000);
  EXPECT_EQ(*ParseDuration("5m"), 300'000);
  EXPECT_EQ(*ParseDuration("1h"), 3'600'000);
  EXPECT_EQ(*ParseDuration("250"), 250);
  EXPECT_EQ(*ParseDuration("1152921504606846976"), kMaxDuration);
  for (const char* bad : {"", "s", "-1s", "1.5s", "10 s", "10d", "99999999999999999999", "9223372036854775807h",
                          "1152921504606846977", "320255973502h"}) {
    EXPECT_FALSE(ParseDuration(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace recflow::pipeline::window
