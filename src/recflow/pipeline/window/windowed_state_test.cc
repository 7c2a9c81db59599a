// Beam's windowing semantics as expectations: cases of Java's ReduceFnRunnerTest and the Python SDK's TriggerTest
// re-expressed over WindowedState (inputs, watermark moves, expected panes), plus sliding and processing-time cases.
#include "recflow/pipeline/window/windowed_state.h"

#include <gtest/gtest.h>

#include "recflow/pipeline/window/window_test_util_internal.h"

namespace recflow::pipeline::window {
namespace {

using testing::Harness;
using testing::Info;
using testing::SeenPane;
using V = std::vector<int64_t>;
constexpr auto kEarly = PaneTiming::kEarly;
constexpr auto kOnTime = PaneTiming::kOnTime;
constexpr auto kLate = PaneTiming::kLate;

WindowingStrategy Strategy(WindowFn fn, Trigger trigger, Accumulation mode = Accumulation::kDiscarding,
                           Millis lateness = 0, TimestampCombiner combiner = TimestampCombiner::kEndOfWindow) {
  return WindowingStrategy{fn, std::move(trigger), mode, lateness, combiner};
}

void ExpectPane(const SeenPane& pane, Window window, V values, PaneInfo info) {
  EXPECT_EQ(pane.window, window);
  EXPECT_EQ(pane.values, values);
  EXPECT_EQ(pane.info, info) << "index " << pane.info.index << " nonspec " << pane.info.nonspeculative_index
                             << " timing " << PaneTimingName(pane.info.timing) << " first " << pane.info.is_first
                             << " last " << pane.info.is_last;
}

// Python TriggerTest.test_fixed_watermark: FixedWindows(10), AfterWatermark(), elements at 1, 2, 13.
TEST(WindowedStateTest, PyFixedWatermark) {
  Harness h(Strategy(WindowFn::Fixed(10), Trigger::AfterWatermark()));
  h.Values({1, 2, 13});
  EXPECT_TRUE(h.Output().empty());
  h.Watermark(kEndOfTime);
  auto out = h.Output();
  ASSERT_EQ(out.size(), 2u);
  ExpectPane(out[0], {0, 10}, {1, 2}, Info(true, true, kOnTime, 0, 0));
  EXPECT_EQ(out[0].timestamp, 9);  // end_of_window: the window's last millisecond
  ExpectPane(out[1], {10, 20}, {13}, Info(true, true, kOnTime, 0, 0));
}

// Python TriggerTest.test_fixed_watermark_with_early (bundles of 2): early AfterCount(2), then on time.
TEST(WindowedStateTest, PyFixedWatermarkWithEarlyDiscardingAndAccumulating) {
  const Trigger early = Trigger::AfterCount(2);
  for (Accumulation mode : {Accumulation::kDiscarding, Accumulation::kAccumulating}) {
    Harness h(Strategy(WindowFn::Fixed(10), Trigger::AfterWatermark(&early), mode));
    h.Values({1, 2});
    h.Values({3});
    h.Watermark(kEndOfTime);
    auto out = h.Output();
    ASSERT_EQ(out.size(), 2u);
    ExpectPane(out[0], {0, 10}, {1, 2}, Info(true, false, kEarly, 0, -1));
    ExpectPane(out[1], {0, 10}, mode == Accumulation::kDiscarding ? V{3} : V{1, 2, 3}, Info(false, true, kOnTime, 1, 0));
  }
}

// Python TriggerTest.test_fixed_watermark_with_early_late: FixedWindows(100), early AfterCount(3), late
// AfterCount(2), accumulating, elements 1..9 in bundles of 2: early panes at 4 and 8 elements, then on time.
TEST(WindowedStateTest, PyFixedWatermarkWithEarlyLate) {
  const Trigger early = Trigger::AfterCount(3), late = Trigger::AfterCount(2);
  Harness h(Strategy(WindowFn::Fixed(100), Trigger::AfterWatermark(&early, &late), Accumulation::kAccumulating));
  for (int64_t v = 1; v <= 9; v += 2) h.Values(v < 9 ? V{v, v + 1} : V{v});
  h.Watermark(kEndOfTime);
  auto out = h.Output();
  ASSERT_EQ(out.size(), 3u);
  ExpectPane(out[0], {0, 100}, {1, 2, 3, 4}, Info(true, false, kEarly, 0, -1));
  ExpectPane(out[1], {0, 100}, {1, 2, 3, 4, 5, 6, 7, 8}, Info(false, false, kEarly, 1, -1));
  ExpectPane(out[2], {0, 100}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, Info(false, true, kOnTime, 2, 0));
}

// Python TriggerTest.test_sessions_watermark: Sessions(10), elements at 1 and 2 → one session [1, 12).
TEST(WindowedStateTest, PySessionsWatermark) {
  Harness h(Strategy(WindowFn::Sessions(10), Trigger::AfterWatermark()));
  h.Values({1, 2});
  h.Watermark(kEndOfTime);
  auto out = h.Output();
  ASSERT_EQ(out.size(), 1u);
  ExpectPane(out[0], {1, 12}, {1, 2}, Info(true, true, kOnTime, 0, 0));
}

// Python TriggerTest.test_sessions_after_count (bundles of 1): the out-of-order 6 bridges the sessions of 1 and 15.
TEST(WindowedStateTest, PySessionsAfterCountMergesOutOfOrder) {
  Harness h(Strategy(WindowFn::Sessions(10), Trigger::AfterCount(2)));
  for (int64_t v : {1, 15, 6, 30, 31, 50, 50}) h.Values({v});
  h.Watermark(kEndOfTime);
  auto out = h.Output();
  ASSERT_EQ(out.size(), 3u);
  ExpectPane(out[0], {1, 25}, {1, 6, 15}, Info(true, true, kEarly, 0, -1));
  ExpectPane(out[1], {30, 41}, {30, 31}, Info(true, true, kEarly, 0, -1));
  ExpectPane(out[2], {50, 60}, {50, 50}, Info(true, true, kEarly, 0, -1));
  EXPECT_EQ(h.state().windows(), 0);
}

// Python TriggerTest.test_sessions_repeatedly_after_count (bundles of 3, accumulating). Java's FIRE_ALWAYS
// on-time behaviour adds the closing on-time pane (nothing new, the accumulated contents), which the
// Python driver leaves out.
TEST(WindowedStateTest, PySessionsRepeatedlyAfterCountAccumulating) {
  Harness h(Strategy(WindowFn::Sessions(10), Trigger::Repeatedly(Trigger::AfterCount(2)), Accumulation::kAccumulating));
  h.Values({1, 15, 6});
  h.Values({2, 7});
  h.Watermark(kEndOfTime);
  auto out = h.Output();
  ASSERT_EQ(out.size(), 3u);
  ExpectPane(out[0], {1, 25}, {1, 6, 15}, Info(true, false, kEarly, 0, -1));
  ExpectPane(out[1], {1, 25}, {1, 2, 6, 7, 15}, Info(false, false, kEarly, 1, -1));
  ExpectPane(out[2], {1, 25}, {1, 2, 6, 7, 15}, Info(false, true, kOnTime, 2, 0));
}

// Python TriggerTest.test_fixed_after_first: AfterAny(AfterCount(2), AfterWatermark()) fires once and
// closes [0, 10); the element at 3 meets a closed window and is dropped (here: reported).
TEST(WindowedStateTest, PyFixedAfterFirstClosesTheWindow) {
  Harness h(Strategy(WindowFn::Fixed(10), Trigger::AfterAny({Trigger::AfterCount(2), Trigger::AfterWatermark()})));
  for (int64_t v : {1, 2, 3, 11}) h.Values({v});
  h.Watermark(kEndOfTime);
  auto out = h.Output();
  ASSERT_EQ(out.size(), 2u);
  ExpectPane(out[0], {0, 10}, {1, 2}, Info(true, true, kEarly, 0, -1));
  ExpectPane(out[1], {10, 20}, {11}, Info(true, true, kOnTime, 0, 0));
  ASSERT_EQ(h.dropped().size(), 1u);
  EXPECT_EQ(h.dropped()[0].event_time, 3);
  EXPECT_TRUE(h.dropped()[0].window_closed);
}

// Python TriggerTest.test_repeatedly_after_first: Repeatedly(AfterAny(AfterCount(3), AfterWatermark())),
// accumulating, elements 0..6 one per bundle → abc, abcdef, then abcdefg on time.
TEST(WindowedStateTest, PyRepeatedlyAfterFirst) {
  Harness h(Strategy(WindowFn::Fixed(100),
                     Trigger::Repeatedly(Trigger::AfterAny({Trigger::AfterCount(3), Trigger::AfterWatermark()})),
                     Accumulation::kAccumulating));
  for (int64_t v = 0; v < 7; ++v) h.Values({v});
  h.Watermark(kEndOfTime);
  auto out = h.Output();
  ASSERT_EQ(out.size(), 3u);
  ExpectPane(out[0], {0, 100}, {0, 1, 2}, Info(true, false, kEarly, 0, -1));
  ExpectPane(out[1], {0, 100}, {0, 1, 2, 3, 4, 5}, Info(false, false, kEarly, 1, -1));
  ExpectPane(out[2], {0, 100}, {0, 1, 2, 3, 4, 5, 6}, Info(false, true, kOnTime, 2, 0));
}

// Java ReduceFnRunnerTest.testPaneInfoAllStates (its mock trigger re-expressed: fire on every element,
// finish at the fifth): EARLY, EARLY, then after the watermark ON_TIME, then LATE panes.
TEST(WindowedStateTest, JavaPaneInfoAllStates) {
  Harness h(Strategy(WindowFn::Fixed(10),
                     Trigger::OrFinally(Trigger::Repeatedly(Trigger::AfterCount(1)), Trigger::AfterCount(5)),
                     Accumulation::kDiscarding, 100));
  h.Watermark(0);
  h.Values({1});
  ExpectPane(h.Output().at(0), {0, 10}, {1}, Info(true, false, kEarly, 0, -1));
  h.Values({2});
  ExpectPane(h.Output().at(0), {0, 10}, {2}, Info(false, false, kEarly, 1, -1));
  h.Watermark(15);  // the end-of-window timer: the trigger does not fire with nothing new
  EXPECT_TRUE(h.Output().empty());
  h.Values({3});
  ExpectPane(h.Output().at(0), {0, 10}, {3}, Info(false, false, kOnTime, 2, 0));
  h.Values({4});
  ExpectPane(h.Output().at(0), {0, 10}, {4}, Info(false, false, kLate, 3, 1));
  h.Values({5});
  ExpectPane(h.Output().at(0), {0, 10}, {5}, Info(false, true, kLate, 4, 2));
}

// Java ReduceFnRunnerTest.testPaneInfoAllStatesAfterWatermark with ClosingBehavior FIRE_IF_NON_EMPTY (as
// noEmptyPanesFinalIfNonEmpty): the empty on-time pane fires (FIRE_ALWAYS), the empty closing one does not.
TEST(WindowedStateTest, JavaPaneInfoAllStatesAfterWatermark) {
  Harness h(Strategy(WindowFn::Fixed(10),
                     Trigger::Repeatedly(Trigger::AfterAny({Trigger::AfterCount(2), Trigger::AfterWatermark()})),
                     Accumulation::kDiscarding, 100, TimestampCombiner::kEarliest));
  h.Watermark(0);
  h.Values({1, 2});
  auto out = h.Output();
  ASSERT_EQ(out.size(), 1u);
  ExpectPane(out[0], {0, 10}, {1, 2}, Info(true, false, kEarly, 0, -1));
  EXPECT_EQ(out[0].timestamp, 1);
  h.Watermark(50);
  out = h.Output();
  ASSERT_EQ(out.size(), 1u);
  ExpectPane(out[0], {0, 10}, {}, Info(false, false, kOnTime, 1, 0));
  EXPECT_EQ(out[0].timestamp, 9);
  h.Watermark(150);
  EXPECT_TRUE(h.Output().empty());
  EXPECT_EQ(h.state().windows(), 0);
}

// Java ReduceFnRunnerTest.noEmptyPanesFinalIfNonEmpty: accumulating, the on-time pane repeats the
// contents at the end-of-window timestamp.
TEST(WindowedStateTest, JavaNoEmptyPanesFinalIfNonEmpty) {
  Harness h(Strategy(WindowFn::Fixed(10),
                     Trigger::Repeatedly(Trigger::AfterAny({Trigger::AfterCount(2), Trigger::AfterWatermark()})),
                     Accumulation::kAccumulating, 100, TimestampCombiner::kEarliest));
  h.Watermark(0);
  h.Values({1, 2});
  h.Watermark(20);
  h.Watermark(250);
  auto out = h.Output();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].values, (V{1, 2}));
  EXPECT_EQ(out[0].timestamp, 1);
  EXPECT_EQ(out[1].values, (V{1, 2}));
  EXPECT_EQ(out[1].timestamp, 9);
}

// Java ReduceFnRunnerTest.testPaneInfoFinalAndOnTime: Repeatedly(AfterCount(2)).orFinally(AfterWatermark()).
TEST(WindowedStateTest, JavaPaneInfoFinalAndOnTime) {
  Harness h(Strategy(WindowFn::Fixed(10),
                     Trigger::OrFinally(Trigger::Repeatedly(Trigger::AfterCount(2)), Trigger::AfterWatermark()),
                     Accumulation::kDiscarding, 100));
  h.Watermark(0);
  h.Values({1, 2});
  ExpectPane(h.Output().at(0), {0, 10}, {1, 2}, Info(true, false, kEarly, 0, -1));
  h.Watermark(150);
  auto out = h.Output();
  ASSERT_EQ(out.size(), 1u);
  ExpectPane(out[0], {0, 10}, {}, Info(false, true, kOnTime, 1, 0));
}

// Java ReduceFnRunnerTest.testPaneInfoSkipToNonSpeculativeAndFinish: the watermark is past the window when
// its first element comes; the trigger fires and finishes: a first, last, LATE pane.
TEST(WindowedStateTest, JavaPaneInfoSkipToNonSpeculativeAndFinish) {
  Harness h(Strategy(WindowFn::Fixed(10), Trigger::AfterCount(1), Accumulation::kDiscarding, 100));
  h.Watermark(15);
  h.Values({1});
  ExpectPane(h.Output().at(0), {0, 10}, {1}, Info(true, true, kLate, 0, 0));
}

// Java ReduceFnRunnerTest.testMergeBeforeFinalizing: sessions [1, 11) and [10, 20) merge before output;
// one pane at the earliest timestamp.
TEST(WindowedStateTest, JavaMergeBeforeFinalizing) {
  Harness h(Strategy(WindowFn::Sessions(10), Trigger::Never(), Accumulation::kDiscarding, 0,
                     TimestampCombiner::kEarliest));
  h.Values({1, 10});
  h.Watermark(100);
  auto out = h.Output();
  ASSERT_EQ(out.size(), 1u);
  ExpectPane(out[0], {1, 20}, {1, 10}, Info(true, true, kOnTime, 0, 0));
  EXPECT_EQ(out[0].timestamp, 1);
}

// Java ReduceFnRunnerTest.testNoWatermarkTriggerNoHold's inputs, then the late element's pane: a
// processing-time trigger fires by the clock, not the watermark. Beam, holding no watermark for this
// window after its early pane, would call the next pane LATE; recflow holds every open window's end
// (as Beam does under ClosingBehavior FIRE_ALWAYS), so the first pane after the end is ON_TIME.
TEST(WindowedStateTest, ProcessingTimeTriggerFiresByTheClock) {
  const Millis day = 86'400'000;
  Harness h(Strategy(WindowFn::Fixed(10), Trigger::Repeatedly(Trigger::AfterProcessingTime(5000)),
                     Accumulation::kDiscarding, day));
  h.Watermark(0);
  h.ProcessingTime(0);
  h.Values({1});
  h.ProcessingTime(4999);
  EXPECT_TRUE(h.Output().empty());
  h.ProcessingTime(6000);
  auto out = h.Output();
  ASSERT_EQ(out.size(), 1u);
  ExpectPane(out[0], {0, 10}, {1}, Info(true, false, kEarly, 0, -1));
  h.Watermark(9 + 3'600'000);  // the end-of-window timer: nothing new, the trigger does not fire
  EXPECT_TRUE(h.Output().empty());
  h.Values({3});  // late, within the allowed lateness
  h.ProcessingTime(10'000);
  EXPECT_TRUE(h.Output().empty());
  h.ProcessingTime(11'000);
  out = h.Output();
  ASSERT_EQ(out.size(), 1u);
  ExpectPane(out[0], {0, 10}, {3}, Info(false, false, kOnTime, 1, 0));
}

// Allowed lateness with the default trigger: the on-time pane, a late pane per late bundle, data past the
// lateness dropped (with its event time and the watermark), and no empty closing pane.
TEST(WindowedStateTest, AllowedLatenessLatePanesAndDroppedData) {
  Harness h(Strategy(WindowFn::Fixed(10), Trigger::Default(), Accumulation::kDiscarding, 10));
  h.Values({1});
  h.Watermark(12);
  ExpectPane(h.Output().at(0), {0, 10}, {1}, Info(true, false, kOnTime, 0, 0));
  h.Values({2});
  ExpectPane(h.Output().at(0), {0, 10}, {2}, Info(false, false, kLate, 1, 1));
  h.Watermark(20);  // 9 + 10 < 20: collected; nothing new, so no closing pane
  EXPECT_TRUE(h.Output().empty());
  h.Values({3});
  ASSERT_EQ(h.dropped().size(), 1u);
  EXPECT_EQ(h.dropped()[0].event_time, 3);
  EXPECT_EQ(h.dropped()[0].watermark, 20);
  EXPECT_FALSE(h.dropped()[0].window_closed);
  EXPECT_EQ(h.dropped()[0].window, (Window{0, 10}));
  EXPECT_EQ(h.state().windows(), 0);
}

// Lateness 0: data behind the watermark is dropped at once; the on-time pane is the last.
TEST(WindowedStateTest, ZeroLatenessDropsLateData) {
  Harness h(Strategy(WindowFn::Fixed(10), Trigger::Default()));
  h.Values({1});
  h.Watermark(25);
  ExpectPane(h.Output().at(0), {0, 10}, {1}, Info(true, true, kOnTime, 0, 0));
  h.Values({5, 21});
  ASSERT_EQ(h.dropped().size(), 1u);
  EXPECT_EQ(h.dropped()[0].event_time, 5);
  h.Watermark(kEndOfTime);
  ExpectPane(h.Output().at(0), {20, 30}, {21}, Info(true, true, kOnTime, 0, 0));
}

// Sliding windows: each element lands in size / period windows; they fire in order of their ends.
TEST(WindowedStateTest, SlidingWindowsFireInOrderOfTheirEnds) {
  Harness h(Strategy(WindowFn::Sliding(10, 5), Trigger::Default()));
  h.Values({3, 7, 12});
  h.Watermark(10);
  auto out = h.Output();
  ASSERT_EQ(out.size(), 2u);
  ExpectPane(out[0], {-5, 5}, {3}, Info(true, true, kOnTime, 0, 0));
  ExpectPane(out[1], {0, 10}, {3, 7}, Info(true, true, kOnTime, 0, 0));
  h.Watermark(kEndOfTime);
  out = h.Output();
  ASSERT_EQ(out.size(), 2u);
  ExpectPane(out[0], {5, 15}, {7, 12}, Info(true, true, kOnTime, 0, 0));
  ExpectPane(out[1], {10, 20}, {12}, Info(true, true, kOnTime, 0, 0));
}

// After each: AfterCount(2) then AfterCount(3), then the sequence is finished and the window closed.
TEST(WindowedStateTest, AfterEachRunsItsTriggersInTurn) {
  Harness h(Strategy(WindowFn::Fixed(100), Trigger::AfterEach({Trigger::AfterCount(2), Trigger::AfterCount(3)})));
  for (int64_t v = 0; v < 7; ++v) h.Values({v});
  auto out = h.Output();
  ASSERT_EQ(out.size(), 2u);
  ExpectPane(out[0], {0, 100}, {0, 1}, Info(true, false, kEarly, 0, -1));
  ExpectPane(out[1], {0, 100}, {2, 3, 4}, Info(false, true, kEarly, 1, -1));
  EXPECT_EQ(h.dropped().size(), 2u);  // 5 and 6 met the closed window
}

// After all: fires once both a count and the watermark would.
TEST(WindowedStateTest, AfterAllWaitsForEveryTrigger) {
  Harness h(Strategy(WindowFn::Fixed(10), Trigger::AfterAll({Trigger::AfterCount(2), Trigger::AfterWatermark()}),
                     Accumulation::kDiscarding, 100));
  h.Values({1});
  h.Values({2});
  EXPECT_TRUE(h.Output().empty());
  h.Watermark(10);
  ExpectPane(h.Output().at(0), {0, 10}, {1, 2}, Info(true, true, kOnTime, 0, 0));
}

// The global window with Repeatedly(AfterCount(2)): panes of two, the remainder on time at the end of input.
TEST(WindowedStateTest, GlobalWindowFiresItsRemainderAtTheEnd) {
  Harness h(Strategy(WindowFn::Global(), Trigger::Repeatedly(Trigger::AfterCount(2))));
  h.Values({1, 2});
  h.Values({3});
  h.Watermark(kEndOfTime);
  auto out = h.Output();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].values, (V{1, 2}));
  EXPECT_EQ(out[0].info, Info(true, false, kEarly, 0, -1));
  EXPECT_EQ(out[1].values, (V{3}));
  EXPECT_EQ(out[1].info, Info(false, true, kOnTime, 1, 0));
}

// Never: only the closing pane; keys keep their own windows; latest timestamp combiner.
TEST(WindowedStateTest, NeverFiresOnlyTheClosingPanePerKey) {
  Harness h(Strategy(WindowFn::Fixed(10), Trigger::Never(), Accumulation::kDiscarding, 0, TimestampCombiner::kLatest));
  h.Bundle({{1, 4}, {2, 6}}, 0);
  h.Bundle({{3, 5}}, 1);
  h.Watermark(10);
  auto out = h.Output();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].key, 0);
  EXPECT_EQ(out[0].values, (V{1, 2}));
  EXPECT_EQ(out[0].timestamp, 6);
  EXPECT_EQ(out[1].key, 1);
  EXPECT_EQ(out[1].timestamp, 5);
}

}  // namespace
}  // namespace recflow::pipeline::window
