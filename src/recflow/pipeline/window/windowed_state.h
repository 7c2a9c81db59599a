// WindowedState: the windows, trigger states and panes of every key of one windowed grouping (Beam's ReduceFnRunner).
#pragma once

#include <algorithm>
#include <cstdint>
#include <queue>
#include <vector>

#include "recflow/core/status.h"
#include "recflow/pipeline/window/windowing.h"

namespace recflow::pipeline::window {

/// What the owner of the pane contents must do, in order: the state decides which window
/// (slot) an element goes to and when slots merge; the owner keeps the values or accumulators
/// per slot (a GroupByKey's rows, a combine's accumulators).
struct ContentOp {
  enum class Kind : uint8_t {
    kAdd,    ///< add element `other` to slot `slot`
    kMerge,  ///< move slot `other`'s contents into slot `slot` (sessions merged); `other` is then free
  };
  Kind kind = Kind::kAdd;
  int64_t slot = 0;
  int64_t other = 0;
};

/// An element not added to one of its windows: later than the allowed lateness, or into a
/// window whose trigger finished. Never silently lost: the owner dead-letters or counts it.
struct Dropped {
  int64_t element = 0;
  Millis event_time = 0;
  Window window;
  Millis watermark = 0;
  bool window_closed = false;  ///< the window's trigger had finished (else: past allowed lateness)
};

/// A fired pane: output slot `slot`'s contents for `key` and `window` if `output`, then clear
/// them unless `keep` (accumulating mode, not the last pane).
struct Pane {
  int64_t key = 0;
  Window window;
  PaneInfo info;
  Millis timestamp = 0;  ///< the pane's output time (TimestampCombiner)
  int64_t slot = 0;
  bool output = true;    ///< false: a closing pane with nothing new (ClosingBehavior FIRE_IF_NON_EMPTY): only clear
  bool keep = false;
};

/// What a WindowedState keeps of one window of a key between bundles: what its trigger, panes
/// and timers need to go on exactly as they would have. The state's own entry and a snapshot's
/// are both this (the snapshot's by copy), so nothing the window keeps can be left out of one.
struct WindowProgress {
  Window window;
  int64_t slot = -1;  ///< the owner's slot holding its contents; -1 for a closed window, which holds none
  TriggerState trigger;
  int64_t new_elements = 0;  ///< since its last pane
  Millis min_time = kEndOfTime, max_time = kMinTime;  ///< of the elements since its last pane
  PaneInfo last;             ///< its last pane, when has_pane
  bool has_pane = false;
  bool closed = false;           ///< the trigger finished: no more panes, elements are dropped
  bool late_for_output = false;  ///< the watermark had passed the window's end when it was made
};

/// One window of one key as WindowedState::Snapshot gives it.
struct WindowSnapshot : WindowProgress {
  int64_t key = 0;
};

/// The logical contents of a WindowedState (a checkpoint's snapshot of it): its clocks and
/// every window it holds, by key, each key's in the order they were made.
struct StateSnapshot {
  Millis watermark = kMinTime;
  Millis processing_time = 0;
  std::vector<WindowSnapshot> windows;
};

/// Windows of every key of one grouping, with their trigger states and pane history. Keys are
/// dense indices the owner gives (its key table's). Not thread-safe: the stage's in-order
/// filter (Merge, OnToken) drives it. Memory: one entry per open window of each key, plus a
/// closed window's entry until the watermark passes its end plus the allowed lateness, and up
/// to two event-time timers per window made or merged (a watermark advance pops the timers due
/// instead of visiting every window).
class WindowedState {
 public:
  explicit WindowedState(WindowingStrategy strategy);

  /// Element `element` (the owner's id) of key `key` at event time `t`: its windows (merged
  /// for sessions), as ops; windows it cannot join go to `dropped`.
  void Add(int64_t key, int64_t element, Millis t, std::vector<ContentOp>* ops, std::vector<Dropped>* dropped);
  /// After a bundle of Adds: the windows they touched whose triggers fire.
  void EndBundle(std::vector<Pane>* panes);
  /// The input watermark moves to `w` (never back): end-of-window and garbage-collection
  /// timers due fire, in order of window end, then key, then window start.
  void AdvanceWatermark(Millis w, std::vector<Pane>* panes);
  /// The processing-time clock moves to `t` (never back): processing-time triggers due fire.
  void AdvanceProcessingTime(Millis t, std::vector<Pane>* panes);

  /// The watermark hold of the panes still to fire (Beam's WatermarkHold): the earliest output
  /// timestamp a window with elements since its last pane would give its pane now; kEndOfTime
  /// when none has any. A grouping's output watermark is the minimum of its input watermark and
  /// this, so that no pane it emits later is behind the watermark it passed on. Visits every
  /// window: once per watermark a streaming grouping passes on.
  Millis OutputHold() const;

  /// Everything the state holds (between bundles: after EndBundle, AdvanceWatermark or
  /// AdvanceProcessingTime); each open window names the slot its contents are in.
  StateSnapshot Snapshot() const;
  /// Makes this state, fresh (nothing added yet), hold `snapshot` of a state of the same
  /// strategy with `keys` keys: the open windows take slots 0, 1, ... in the snapshot's order
  /// (the owner puts each one's contents there), the timers are made again. DataError when the
  /// snapshot is not one of such a state (a key out of range, a trigger of another shape).
  Status Restore(const StateSnapshot& snapshot, int64_t keys);

  /// Windows held (open, and closed ones not yet collected).
  int64_t windows() const { return windows_; }

 private:
  // A window held, and what only a bundle in progress needs of it (never snapshotted).
  struct WindowState : WindowProgress {
    bool touched = false;  // got elements in this bundle
  };
  struct KeyState {
    std::vector<WindowState> windows;
    bool touched = false;
  };
  struct Due {
    int64_t key;
    Window window;
    Millis at;
  };

  // When `w` is collected: its last timestamp plus the allowed lateness (before the end of time,
  // so that the end of input collects every window).
  Millis GcTime(const Window& w) const {
    return std::min(SaturatingAdd(w.max_timestamp(), strategy_.allowed_lateness), kEndOfTime - 1);
  }
  // Schedules the end-of-window timer of window `w` of `key` (unless the watermark passed it)
  // and its garbage-collection timer.
  void Schedule(int64_t key, const Window& w);
  TriggerContext Context(const Window& w) const { return TriggerContext{w, watermark_, processing_time_}; }
  // The window of `key` an element at `w` joins (made or merged); null with `dropped` set when none.
  WindowState* Join(int64_t key, const Window& w, std::vector<ContentOp>* ops, bool* closed);
  WindowState& Make(int64_t key, const Window& w);
  // Fires `ws`: the trigger's own firing, or the garbage-collection (closing) pane when `closing`.
  void Fire(int64_t key, WindowState& ws, bool closing, std::vector<Pane>* panes);
  PaneInfo Describe(const WindowState& ws, bool is_last) const;
  // The timestamp (TimestampCombiner) of the pane `ws` would fire now.
  Millis PaneTimestamp(const WindowState& ws) const;
  // Fires the windows in `due` (sorted here), calling `fire` on each still present.
  template <typename Fn>
  void FireDue(std::vector<Due>& due, Fn fire);
  void FreeSlot(int64_t slot) { free_slots_.push_back(slot); }

  WindowingStrategy strategy_;
  TriggerMachine machine_;
  std::vector<KeyState> keys_;
  std::vector<int64_t> touched_keys_;
  std::vector<Window> assigned_;  // scratch for WindowFn::Assign
  // Event-time timers, earliest first: entries of windows merged or collected since are stale
  // and skipped when they come due.
  struct Later {
    bool operator()(const Due& a, const Due& b) const { return a.at > b.at; }
  };
  std::priority_queue<Due, std::vector<Due>, Later> timers_;
  std::vector<int64_t> free_slots_;
  int64_t next_slot_ = 0;
  int64_t windows_ = 0;
  Millis watermark_ = kMinTime;
  Millis processing_time_ = 0;
};

}  // namespace recflow::pipeline::window
