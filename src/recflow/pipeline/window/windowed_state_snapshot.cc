// WindowedState::Snapshot and Restore: a state's windows, trigger states, panes and clocks out and back in, by their
// logical contents (a checkpoint's snapshot), never by the state's layout.
#include <string>

#include "recflow/pipeline/window/windowed_state.h"

namespace recflow::pipeline::window {

StateSnapshot WindowedState::Snapshot() const {
  StateSnapshot snapshot;
  snapshot.watermark = watermark_;
  snapshot.processing_time = processing_time_;
  for (size_t k = 0; k < keys_.size(); ++k) {
    for (const WindowState& ws : keys_[k].windows) {
      WindowSnapshot& w = snapshot.windows.emplace_back();
      static_cast<WindowProgress&>(w) = ws;
      w.key = static_cast<int64_t>(k);
      if (w.closed) w.slot = -1;
    }
  }
  return snapshot;
}

Status WindowedState::Restore(const StateSnapshot& snapshot, int64_t keys) {
  if (windows_ != 0 || next_slot_ != 0 || !keys_.empty()) {
    return Status::Internal("a window state is restored only into a fresh one");
  }
  const size_t trigger_nodes = machine_.NewState().size();
  keys_.resize(static_cast<size_t>(keys));
  watermark_ = snapshot.watermark;
  processing_time_ = snapshot.processing_time;
  for (size_t i = 0; i < snapshot.windows.size(); ++i) {
    const WindowSnapshot& w = snapshot.windows[i];
    auto refuse = [&](const std::string& why) {
      return Status::DataError("window " + std::to_string(i) + " of the snapshot: " + why);
    };
    if (w.key < 0 || w.key >= keys) return refuse("key " + std::to_string(w.key) + " of " + std::to_string(keys));
    if (w.trigger.size() != trigger_nodes) {
      return refuse("a trigger of " + std::to_string(w.trigger.size()) + " nodes where this one has " +
                    std::to_string(trigger_nodes) + " (a snapshot of another pipeline?)");
    }
    if (w.window.end <= w.window.start) return refuse("an empty window");
    WindowState& ws = keys_[static_cast<size_t>(w.key)].windows.emplace_back();
    static_cast<WindowProgress&>(ws) = w;
    ws.slot = w.closed ? -1 : next_slot_++;
    Schedule(w.key, w.window);  // the timers still due: the end-of-window one unless passed, the collection one
    ++windows_;
  }
  return Status::OK();
}

}  // namespace recflow::pipeline::window
