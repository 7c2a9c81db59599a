// WindowedState: assigning, merging, firing and collecting windows per key as Beam's ReduceFnRunner does.
#include "recflow/pipeline/window/windowed_state.h"

#include <algorithm>

namespace recflow::pipeline::window {

WindowedState::WindowedState(WindowingStrategy strategy)
    : strategy_(std::move(strategy)), machine_(strategy_.trigger) {}

void WindowedState::Schedule(int64_t key, const Window& w) {
  if (w.max_timestamp() >= watermark_) timers_.push(Due{key, w, w.max_timestamp()});
  if (GcTime(w) != w.max_timestamp()) timers_.push(Due{key, w, GcTime(w)});
}

WindowedState::WindowState& WindowedState::Make(int64_t key, const Window& w) {
  KeyState& ks = keys_[static_cast<size_t>(key)];
  Schedule(key, w);
  WindowState ws;
  ws.window = w;
  if (!free_slots_.empty()) {
    ws.slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    ws.slot = next_slot_++;
  }
  ws.trigger = machine_.NewState();
  // No hold kept the output watermark before the window's end: every pane of it is late
  // (Beam's isLateForOutput).
  ws.late_for_output = watermark_ > w.max_timestamp();
  ++windows_;
  ks.windows.push_back(std::move(ws));
  return ks.windows.back();
}

WindowedState::WindowState* WindowedState::Join(int64_t key, const Window& w, std::vector<ContentOp>* ops,
                                                bool* closed) {
  KeyState& ks = keys_[static_cast<size_t>(key)];
  if (!strategy_.window_fn.merging()) {
    for (WindowState& ws : ks.windows) {
      if (ws.window == w) {
        *closed = ws.closed;
        return ws.closed ? nullptr : &ws;
      }
    }
    return &Make(key, w);
  }
  // Sessions: the proto-window merges with every window of the key it intersects (those are
  // disjoint, so one pass finds them all), the earliest made surviving.
  size_t survivor = ks.windows.size();
  for (size_t i = 0; i < ks.windows.size(); ++i) {
    if (!ks.windows[i].window.Intersects(w)) continue;
    if (ks.windows[i].closed) {
      *closed = true;
      return nullptr;
    }
    if (survivor == ks.windows.size()) survivor = i;
  }
  if (survivor == ks.windows.size()) return &Make(key, w);
  WindowState& into = ks.windows[survivor];
  into.window = Window{std::min(into.window.start, w.start), std::max(into.window.end, w.end)};
  // The others fold into the survivor in the order they were made; erased afterwards, last first.
  std::vector<size_t> merged;
  for (size_t i = survivor + 1; i < ks.windows.size(); ++i) {
    WindowState& from = ks.windows[i];
    if (!from.window.Intersects(w)) continue;
    merged.push_back(i);
    ops->push_back(ContentOp{ContentOp::Kind::kMerge, into.slot, from.slot});
    machine_.Merge(into.trigger, from.trigger);
    into.window = Window{std::min(into.window.start, from.window.start), std::max(into.window.end, from.window.end)};
    into.new_elements += from.new_elements;
    into.min_time = std::min(into.min_time, from.min_time);
    into.max_time = std::max(into.max_time, from.max_time);
    if (from.has_pane && (!into.has_pane || from.last.index > into.last.index)) into.last = from.last;
    into.has_pane = into.has_pane || from.has_pane;
    into.late_for_output = into.late_for_output && from.late_for_output;
    into.touched = into.touched || from.touched;
    FreeSlot(from.slot);
  }
  for (size_t k = merged.size(); k-- > 0;) ks.windows.erase(ks.windows.begin() + static_cast<std::ptrdiff_t>(merged[k]));
  windows_ -= static_cast<int64_t>(merged.size());
  Schedule(key, ks.windows[survivor].window);  // the merged window's own timers (the old ones are stale)
  return &ks.windows[survivor];
}

void WindowedState::Add(int64_t key, int64_t element, Millis t, std::vector<ContentOp>* ops,
                        std::vector<Dropped>* dropped) {
  if (static_cast<size_t>(key) >= keys_.size()) keys_.resize(static_cast<size_t>(key) + 1);
  strategy_.window_fn.Assign(t, &assigned_);
  for (const Window& w : assigned_) {
    // Beam's LateDataDroppingDoFnRunner: a window already garbage-collected takes nothing.
    if (GcTime(w) < watermark_) {
      dropped->push_back(Dropped{element, t, w, watermark_, false});
      continue;
    }
    bool closed = false;
    WindowState* ws = Join(key, w, ops, &closed);
    if (ws == nullptr) {
      dropped->push_back(Dropped{element, t, w, watermark_, closed});
      continue;
    }
    ++ws->new_elements;
    ws->min_time = std::min(ws->min_time, t);
    ws->max_time = std::max(ws->max_time, t);
    machine_.OnElement(ws->trigger, Context(ws->window));
    ops->push_back(ContentOp{ContentOp::Kind::kAdd, ws->slot, element});
    ws->touched = true;
    KeyState& ks = keys_[static_cast<size_t>(key)];
    if (!ks.touched) {
      ks.touched = true;
      touched_keys_.push_back(key);
    }
  }
}

PaneInfo WindowedState::Describe(const WindowState& ws, bool is_last) const {
  PaneInfo info;
  info.is_first = !ws.has_pane;
  info.is_last = is_last;
  info.index = ws.has_pane ? ws.last.index + 1 : 0;
  info.nonspeculative_index = ws.has_pane ? ws.last.nonspeculative_index + 1 : 0;
  const bool only_early_so_far = !ws.has_pane || ws.last.timing == PaneTiming::kEarly;
  if (ws.late_for_output || !only_early_so_far) {
    info.timing = PaneTiming::kLate;
  } else if (watermark_ <= ws.window.max_timestamp()) {
    info.timing = PaneTiming::kEarly;
    info.nonspeculative_index = -1;
  } else {
    info.timing = PaneTiming::kOnTime;
  }
  return info;
}

void WindowedState::Fire(int64_t key, WindowState& ws, bool closing, std::vector<Pane>* panes) {
  bool finished = closing;
  if (!closing) {
    machine_.OnFire(ws.trigger, Context(ws.window));
    finished = machine_.Finished(ws.trigger);
  }
  const PaneInfo info = Describe(ws, finished);
  const bool accumulating = strategy_.accumulation == Accumulation::kAccumulating;
  // Beam's needToEmit: a pane with new elements, or the on-time pane even when empty
  // (OnTimeBehavior FIRE_ALWAYS); the closing pane only when non-empty (FIRE_IF_NON_EMPTY).
  const bool output = ws.new_elements > 0 || info.timing == PaneTiming::kOnTime;
  if (output || finished) {
    panes->push_back(Pane{key, ws.window, info, PaneTimestamp(ws), ws.slot, output, accumulating && !finished});
  }
  if (output) {
    ws.last = info;
    ws.has_pane = true;
  }
  // The next pane's timestamp comes from the elements after this one, also when accumulating
  // (Beam's holds are released by each pane).
  ws.new_elements = 0;
  ws.min_time = kEndOfTime;
  ws.max_time = kMinTime;
  if (finished) {
    ws.closed = true;
    FreeSlot(ws.slot);
  }
}

void WindowedState::EndBundle(std::vector<Pane>* panes) {
  for (int64_t key : touched_keys_) {
    KeyState& ks = keys_[static_cast<size_t>(key)];
    ks.touched = false;
    for (WindowState& ws : ks.windows) {
      if (!ws.touched) continue;
      ws.touched = false;
      if (!ws.closed && machine_.ShouldFire(ws.trigger, Context(ws.window))) Fire(key, ws, false, panes);
    }
  }
  touched_keys_.clear();
}

template <typename Fn>
void WindowedState::FireDue(std::vector<Due>& due, Fn fire) {
  std::sort(due.begin(), due.end(), [](const Due& a, const Due& b) {
    if (a.at != b.at) return a.at < b.at;
    if (a.key != b.key) return a.key < b.key;
    return a.window.start < b.window.start;
  });
  due.erase(std::unique(due.begin(), due.end(),
                        [](const Due& a, const Due& b) { return a.key == b.key && a.window == b.window && a.at == b.at; }),
            due.end());
  for (const Due& d : due) {
    auto& windows = keys_[static_cast<size_t>(d.key)].windows;
    auto it = std::find_if(windows.begin(), windows.end(), [&](const WindowState& ws) { return ws.window == d.window; });
    if (it != windows.end()) fire(d.key, windows, it);
  }
}

void WindowedState::AdvanceWatermark(Millis w, std::vector<Pane>* panes) {
  if (w <= watermark_) return;
  const Millis before = watermark_;
  watermark_ = w;
  std::vector<Due> due;
  while (!timers_.empty() && timers_.top().at < w) {
    Due d = timers_.top();
    timers_.pop();
    d.at = d.window.max_timestamp();  // fired in order of window end, each window once
    due.push_back(d);
  }
  FireDue(due, [&](int64_t key, std::vector<WindowState>& windows, std::vector<WindowState>::iterator it) {
    WindowState& ws = *it;
    const bool collect = GcTime(ws.window) < watermark_;
    // With allowed lateness the end-of-window timer asks the trigger first; at garbage
    // collection (the same timer when the lateness is 0) the closing pane goes out whatever
    // the trigger says.
    const bool end_timer = ws.window.max_timestamp() >= before && (!collect || strategy_.allowed_lateness > 0);
    if (end_timer && !ws.closed && machine_.ShouldFire(ws.trigger, Context(ws.window))) Fire(key, ws, false, panes);
    if (!collect) return;
    if (!ws.closed) Fire(key, ws, true, panes);
    windows.erase(it);
    --windows_;
  });
}

void WindowedState::AdvanceProcessingTime(Millis t, std::vector<Pane>* panes) {
  if (t <= processing_time_) return;
  processing_time_ = t;
  if (!machine_.uses_processing_time()) return;  // no window's trigger waits for it: nothing to visit
  std::vector<Due> due;
  for (size_t k = 0; k < keys_.size(); ++k) {
    for (const WindowState& ws : keys_[k].windows) {
      if (ws.closed) continue;
      const Millis at = machine_.NextProcessingTimer(ws.trigger);
      if (at <= t) due.push_back(Due{static_cast<int64_t>(k), ws.window, at});
    }
  }
  FireDue(due, [&](int64_t key, std::vector<WindowState>&, std::vector<WindowState>::iterator it) {
    if (machine_.ShouldFire(it->trigger, Context(it->window))) Fire(key, *it, false, panes);
  });
}

Millis WindowedState::PaneTimestamp(const WindowState& ws) const {
  if (ws.min_time > ws.max_time) return ws.window.max_timestamp();  // nothing new since the last pane
  if (strategy_.timestamp_combiner == TimestampCombiner::kEarliest) return ws.min_time;
  if (strategy_.timestamp_combiner == TimestampCombiner::kLatest) return ws.max_time;
  return ws.window.max_timestamp();
}

Millis WindowedState::OutputHold() const {
  Millis hold = kEndOfTime;
  for (const KeyState& key : keys_) {
    for (const WindowState& ws : key.windows) {
      if (!ws.closed && ws.new_elements > 0) hold = std::min(hold, PaneTimestamp(ws));
    }
  }
  return hold;
}

}  // namespace recflow::pipeline::window
