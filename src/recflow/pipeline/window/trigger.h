// Triggers as Beam's state machines: when a key's window emits a pane (watermark, counts, processing time, composites).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "recflow/pipeline/window/event_time.h"
#include "recflow/pipeline/window/window_fn.h"

namespace recflow::pipeline::window {

/// A trigger as the user writes it: a tree of Beam's triggers.
struct Trigger {
  enum class Kind : uint8_t {
    kDefault,            ///< fire whenever the watermark is past the window's end (repeatedly)
    kAfterWatermark,     ///< the on-time pane, with optional early and late firings (children)
    kAfterCount,         ///< once `count` elements arrived in the pane
    kAfterProcessingTime,///< once `delay` of processing time passed since the pane's first element
    kRepeatedly,         ///< its child, again and again
    kAfterAny,           ///< once any child would fire
    kAfterAll,           ///< once every child would fire
    kAfterEach,          ///< its children one after the other
    kOrFinally,          ///< its first child until its second fires (the last pane)
    kNever,              ///< never (only the window's closing pane)
  };
  Kind kind = Kind::kDefault;
  int64_t count = 0;  ///< kAfterCount
  Millis delay = 0;   ///< kAfterProcessingTime
  /// Composites: their triggers; kOrFinally: {main, until}; kAfterWatermark: the early and
  /// late triggers, as `has_early` and `has_late` say (early first).
  std::vector<Trigger> children;
  bool has_early = false;
  bool has_late = false;

  /// The triggers by Beam's names (see the Kind values).
  static Trigger Default() { return Trigger{}; }
  static Trigger Never() { return Trigger{Kind::kNever, 0, 0, {}}; }
  static Trigger AfterCount(int64_t n) { return Trigger{Kind::kAfterCount, n, 0, {}}; }
  static Trigger AfterProcessingTime(Millis delay) { return Trigger{Kind::kAfterProcessingTime, 0, delay, {}}; }
  /// After the watermark passes the window's end; `early` / `late` fire before / after it.
  static Trigger AfterWatermark(const Trigger* early = nullptr, const Trigger* late = nullptr);
  static Trigger Repeatedly(Trigger t);
  static Trigger AfterAny(std::vector<Trigger> ts) { return Trigger{Kind::kAfterAny, 0, 0, std::move(ts)}; }
  static Trigger AfterAll(std::vector<Trigger> ts) { return Trigger{Kind::kAfterAll, 0, 0, std::move(ts)}; }
  static Trigger AfterEach(std::vector<Trigger> ts) { return Trigger{Kind::kAfterEach, 0, 0, std::move(ts)}; }
  static Trigger OrFinally(Trigger main, Trigger until);

  /// "after_count(2)", ... for plans and messages.
  std::string ToString() const;
};

/// What a trigger sees of its window when it decides.
struct TriggerContext {
  Window window;
  Millis watermark = kMinTime;        ///< the input watermark
  Millis processing_time = kMinTime;  ///< the clock (a test stream's, or the wall clock live)
};

/// The state of one trigger node for one window.
struct TriggerNodeState {
  bool finished = false;
  bool on_time_fired = false;  ///< kAfterWatermark: the on-time pane went out (late phase)
  int64_t count = 0;           ///< kAfterCount: elements so far
  Millis target = kEndOfTime;  ///< kAfterProcessingTime: when it fires (kEndOfTime: not armed)
};

/// A trigger's state for one window: one entry per node, in the machine's preorder.
using TriggerState = std::vector<TriggerNodeState>;

/// Runs one trigger tree over the states of many windows (Beam's TriggerStateMachine with
/// ExecutableTriggerStateMachine's finished bits): OnElement for each element of a window,
/// ShouldFire after a bundle and at each timer, OnFire when the pane is emitted, Merge when
/// windows merge. The window is closed once the root is finished.
class TriggerMachine {
 public:
  explicit TriggerMachine(const Trigger& trigger);

  /// A fresh state (nothing seen) for a new window.
  TriggerState NewState() const { return TriggerState(nodes_.size()); }
  /// An element arrived in the window.
  void OnElement(TriggerState& state, const TriggerContext& ctx) const { OnElement(0, state, ctx); }
  /// Whether the window's pane should fire now (after a bundle, or at a timer).
  bool ShouldFire(const TriggerState& state, const TriggerContext& ctx) const { return ShouldFire(0, state, ctx); }
  /// The pane fired: the trigger moves on (a once-trigger finishes, a repeated one starts over).
  void OnFire(TriggerState& state, const TriggerContext& ctx) const { OnFire(0, state, ctx); }
  /// Folds `from` (a window merged away) into `into` (the merged window's state).
  void Merge(TriggerState& into, const TriggerState& from) const;
  /// True once the root finished: the window is closed.
  bool Finished(const TriggerState& state) const { return state[0].finished; }
  /// The earliest processing time at which some node of `state` may fire (kEndOfTime: none).
  Millis NextProcessingTimer(const TriggerState& state) const;
  /// True when the trigger has an after_processing_time node (otherwise no processing time fires it).
  bool uses_processing_time() const { return uses_processing_time_; }

 private:
  struct Node {
    Trigger::Kind kind;
    int64_t count = 0;
    Millis delay = 0;
    std::vector<size_t> children;  // indices into nodes_
    int early = -1, late = -1;     // kAfterWatermark: child nodes, or -1
    size_t end = 0;                // one past the last node of this subtree
  };
  size_t Add(const Trigger& t);
  void OnElement(size_t n, TriggerState& s, const TriggerContext& ctx) const;
  bool ShouldFire(size_t n, const TriggerState& s, const TriggerContext& ctx) const;
  void OnFire(size_t n, TriggerState& s, const TriggerContext& ctx) const;
  void Reset(size_t n, TriggerState& s) const;
  // The first child of `n` not finished, or -1.
  int FirstUnfinished(size_t n, const TriggerState& s) const;

  std::vector<Node> nodes_;
  bool uses_processing_time_ = false;
};

}  // namespace recflow::pipeline::window
