// A test harness over WindowedState: integer values kept per slot, panes collected as (window, values, info, timestamp).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "recflow/pipeline/window/windowed_state.h"

namespace recflow::pipeline::window::testing {

/// One pane as a test sees it: its key, window, sorted values, info and timestamp.
struct SeenPane {
  int64_t key = 0;
  Window window;
  std::vector<int64_t> values;
  PaneInfo info;
  Millis timestamp = 0;
};

/// Drives a WindowedState the way a grouping does: elements are values (their own event
/// times unless given), bundles end explicitly, panes and drops are collected in order.
class Harness {
 public:
  explicit Harness(WindowingStrategy strategy) : state_(std::move(strategy)) {}

  /// One bundle of (value, event time) for `key`, then EndBundle.
  void Bundle(std::vector<std::pair<int64_t, Millis>> elements, int64_t key = 0) {
    for (const auto& [value, t] : elements) {
      const int64_t element = static_cast<int64_t>(values_.size());
      values_.push_back(value);
      ops_.clear();
      state_.Add(key, element, t, &ops_, &dropped_);
      Apply();
    }
    Take([&](std::vector<Pane>* panes) { state_.EndBundle(panes); });
  }
  /// One bundle of values at their own event times.
  void Values(std::vector<int64_t> values, int64_t key = 0) {
    std::vector<std::pair<int64_t, Millis>> elements;
    for (int64_t v : values) elements.emplace_back(v, v);
    Bundle(std::move(elements), key);
  }
  void Watermark(Millis w) { Take([&](std::vector<Pane>* panes) { state_.AdvanceWatermark(w, panes); }); }
  void ProcessingTime(Millis t) { Take([&](std::vector<Pane>* panes) { state_.AdvanceProcessingTime(t, panes); }); }

  /// Makes this harness, fresh, go on from `from`'s snapshot (of `keys` keys) as a restarted run
  /// would: its state restored, each open window's values moved to the slot it has now.
  Status Restore(const Harness& from, int64_t keys) {
    const StateSnapshot snapshot = from.state_.Snapshot();
    RETURN_NOT_OK(state_.Restore(snapshot, keys));
    values_ = from.values_;
    for (const WindowSnapshot& w : snapshot.windows) {
      if (w.slot >= 0) slots_.push_back(from.slots_[static_cast<size_t>(w.slot)]);
    }
    return Status::OK();
  }

  /// The panes output since the last call.
  std::vector<SeenPane> Output() { return std::exchange(output_, {}); }
  const std::vector<Dropped>& dropped() const { return dropped_; }
  const WindowedState& state() const { return state_; }

 private:
  void Apply() {
    for (const ContentOp& op : ops_) {
      const size_t need = static_cast<size_t>(std::max(op.slot, op.other)) + 1;
      if (slots_.size() < need) slots_.resize(need);
      auto& into = slots_[static_cast<size_t>(op.slot)];
      if (op.kind == ContentOp::Kind::kAdd) {
        into.push_back(values_[static_cast<size_t>(op.other)]);
      } else {
        auto& from = slots_[static_cast<size_t>(op.other)];
        into.insert(into.end(), from.begin(), from.end());
        from.clear();
      }
    }
  }
  template <typename Fn>
  void Take(Fn fn) {
    std::vector<Pane> panes;
    fn(&panes);
    for (const Pane& pane : panes) {
      auto& contents = slots_[static_cast<size_t>(pane.slot)];
      if (pane.output) {
        std::vector<int64_t> values = contents;
        std::sort(values.begin(), values.end());
        output_.push_back(SeenPane{pane.key, pane.window, values, pane.info, pane.timestamp});
      }
      if (!pane.keep) contents.clear();
    }
  }

  WindowedState state_;
  std::vector<int64_t> values_;
  std::vector<std::vector<int64_t>> slots_;
  std::vector<ContentOp> ops_;
  std::vector<Dropped> dropped_;
  std::vector<SeenPane> output_;
};

/// A pane's info: Beam's PaneInfo.createPane(isFirst, isLast, timing, index, nonSpeculativeIndex).
inline PaneInfo Info(bool first, bool last, PaneTiming timing, int64_t index, int64_t nonspeculative) {
  return PaneInfo{timing, index, nonspeculative, first, last};
}

}  // namespace recflow::pipeline::window::testing
