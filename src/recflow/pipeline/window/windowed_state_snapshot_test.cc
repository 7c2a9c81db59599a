// WindowedState::Snapshot / Restore: a state restored from a snapshot taken between any two steps of a random stream
// (bundles of several keys, late elements, watermark and processing-time moves) fires exactly the panes and drops
// exactly the elements the uninterrupted state does from there on — for fixed, sliding, session and global windows
// with early, late, count and processing-time triggers, both accumulation modes and allowed lateness.
#include <gtest/gtest.h>

#include <random>

#include "recflow/pipeline/window/window_test_util_internal.h"
#include "recflow/pipeline/window/windowed_state.h"

namespace recflow::pipeline::window {
namespace {

using testing::Harness;
using testing::SeenPane;

constexpr int64_t kKeys = 4;

// One step of a stream: a bundle of (key, event time) elements, or a move of the watermark or the processing time.
struct Step {
  enum class Kind { kBundle, kWatermark, kProcessingTime } kind = Kind::kBundle;
  std::vector<std::pair<int64_t, Millis>> elements;
  Millis time = 0;
};

std::vector<Step> RandomStream(uint32_t seed) {
  std::mt19937 rng(seed);
  auto uniform = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
  std::vector<Step> steps;
  Millis watermark = 0, clock = 0;
  for (int i = 0; i < 60; ++i) {
    const int64_t pick = uniform(0, 99);
    if (pick < 60) {
      Step step;
      for (int64_t n = uniform(1, 4); n > 0; --n) step.elements.emplace_back(uniform(0, kKeys - 1), watermark + uniform(-12, 15));
      steps.push_back(step);
    } else if (pick < 85) {
      watermark += uniform(0, 15);
      steps.push_back(Step{Step::Kind::kWatermark, {}, watermark});
    } else {
      clock += uniform(1, 6);
      steps.push_back(Step{Step::Kind::kProcessingTime, {}, clock});
    }
  }
  steps.push_back(Step{Step::Kind::kWatermark, {}, kEndOfTime});
  return steps;
}

void Play(Harness& h, const Step& step) {
  if (step.kind == Step::Kind::kWatermark) return h.Watermark(step.time);
  if (step.kind == Step::Kind::kProcessingTime) return h.ProcessingTime(step.time);
  for (const auto& [key, t] : step.elements) h.Bundle({{t * 100 + key, t}}, key);  // values name the element
}

bool Same(const std::vector<SeenPane>& a, const std::vector<SeenPane>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].key != b[i].key || !(a[i].window == b[i].window) || a[i].values != b[i].values ||
        !(a[i].info == b[i].info) || a[i].timestamp != b[i].timestamp) {
      return false;
    }
  }
  return true;
}

std::vector<WindowingStrategy> Strategies() {
  const Trigger count2 = Trigger::AfterCount(2);
  const Trigger count1 = Trigger::AfterCount(1);
  const Trigger soon = Trigger::AfterProcessingTime(5);
  return {
      WindowingStrategy{WindowFn::Fixed(10), Trigger::AfterWatermark(&count2, &count1), Accumulation::kAccumulating, 5,
                        TimestampCombiner::kEndOfWindow},
      WindowingStrategy{WindowFn::Sliding(20, 5), Trigger::Default(), Accumulation::kDiscarding, 0,
                        TimestampCombiner::kEarliest},
      WindowingStrategy{WindowFn::Sessions(7), Trigger::AfterWatermark(&soon, nullptr), Accumulation::kDiscarding, 10,
                        TimestampCombiner::kLatest},
      WindowingStrategy{WindowFn::Global(), Trigger::Repeatedly(Trigger::AfterAny({Trigger::AfterCount(3), soon})),
                        Accumulation::kAccumulating, 0, TimestampCombiner::kEndOfWindow},
      // A window made after the watermark passed its end holds its elements until the count fires: its panes are
      // late however many came before.
      WindowingStrategy{WindowFn::Fixed(10), Trigger::Repeatedly(Trigger::AfterCount(3)), Accumulation::kDiscarding, 20,
                        TimestampCombiner::kEarliest},
  };
}

TEST(WindowedStateSnapshotTest, ARestoredStateGoesOnExactlyAsTheUninterruptedOne) {
  for (const WindowingStrategy& strategy : Strategies()) {
    for (uint32_t seed = 1; seed <= 5; ++seed) {
      const std::vector<Step> steps = RandomStream(seed);
      Harness whole(strategy);
      std::vector<std::vector<SeenPane>> panes;  // per step: what the uninterrupted state fired
      std::vector<size_t> dropped;                // per step: elements dropped before it
      for (const Step& step : steps) {
        dropped.push_back(whole.dropped().size());
        Play(whole, step);
        panes.push_back(whole.Output());
      }
      for (size_t cut = 0; cut <= steps.size(); ++cut) {
        Harness before(strategy);
        for (size_t i = 0; i < cut; ++i) Play(before, steps[i]);
        Harness after(strategy);
        ASSERT_TRUE(after.Restore(before, kKeys).ok());
        EXPECT_EQ(after.state().windows(), before.state().windows());
        for (size_t i = cut; i < steps.size(); ++i) {
          Play(after, steps[i]);
          ASSERT_TRUE(Same(after.Output(), panes[i]))
              << strategy.ToString() << ", seed " << seed << ": restored after step " << cut << ", step " << i << " differs";
        }
        EXPECT_EQ(after.dropped().size(), whole.dropped().size() - (cut < steps.size() ? dropped[cut] : whole.dropped().size()))
            << strategy.ToString() << ", seed " << seed << ", cut " << cut;
      }
    }
  }
}

TEST(WindowedStateSnapshotTest, ASnapshotOfAnotherShapeIsRefused) {
  Harness fixed(WindowingStrategy{WindowFn::Fixed(10), Trigger::Default(), Accumulation::kDiscarding, 0,
                                  TimestampCombiner::kEndOfWindow});
  fixed.Values({1, 2}, 1);
  const Trigger count2 = Trigger::AfterCount(2);
  Harness other(WindowingStrategy{WindowFn::Fixed(10), Trigger::AfterWatermark(&count2), Accumulation::kDiscarding, 0,
                                  TimestampCombiner::kEndOfWindow});
  const Status st = other.Restore(fixed, kKeys);
  EXPECT_EQ(st.code(), StatusCode::kDataError);
  EXPECT_NE(st.message().find("a trigger of 1 nodes where this one has 2"), std::string::npos) << st.ToString();
  Harness fewer_keys(WindowingStrategy{WindowFn::Fixed(10), Trigger::Default(), Accumulation::kDiscarding, 0,
                                       TimestampCombiner::kEndOfWindow});
  EXPECT_EQ(fewer_keys.Restore(fixed, 1).code(), StatusCode::kDataError);  // key 1 of 1
}

}  // namespace
}  // namespace recflow::pipeline::window
