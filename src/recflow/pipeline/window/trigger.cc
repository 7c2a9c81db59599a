// Trigger state machines: Beam's triggers over a flat per-window state (one entry per node, preorder).
#include "recflow/pipeline/window/trigger.h"

#include <algorithm>

namespace recflow::pipeline::window {

Trigger Trigger::AfterWatermark(const Trigger* early, const Trigger* late) {
  Trigger t{Kind::kAfterWatermark, 0, 0, {}};
  if (early != nullptr) t.children.push_back(*early);
  if (late != nullptr) t.children.push_back(*late);
  t.has_early = early != nullptr;
  t.has_late = late != nullptr;
  return t;
}

Trigger Trigger::Repeatedly(Trigger t) { return Trigger{Kind::kRepeatedly, 0, 0, {std::move(t)}}; }

Trigger Trigger::OrFinally(Trigger main, Trigger until) {
  return Trigger{Kind::kOrFinally, 0, 0, {std::move(main), std::move(until)}};
}

std::string Trigger::ToString() const {
  auto list = [this](const char* name) {
    std::string out = std::string(name) + "(";
    for (size_t i = 0; i < children.size(); ++i) out += (i > 0 ? ", " : "") + children[i].ToString();
    return out + ")";
  };
  switch (kind) {
    case Kind::kDefault: return "default";
    case Kind::kNever: return "never";
    case Kind::kAfterCount: return "after_count(" + std::to_string(count) + ")";
    case Kind::kAfterProcessingTime: return "after_processing_time(" + std::to_string(delay) + "ms)";
    case Kind::kAfterWatermark: {
      std::string out = "after_watermark(";
      if (has_early) out += "early: " + children[0].ToString();
      if (has_late) out += std::string(has_early ? ", " : "") + "late: " + children.back().ToString();
      return out + ")";
    }
    case Kind::kRepeatedly: return list("repeatedly");
    case Kind::kAfterAny: return list("after_any");
    case Kind::kAfterAll: return list("after_all");
    case Kind::kAfterEach: return list("after_each");
    case Kind::kOrFinally: return list("or_finally");
  }
  return "";
}

TriggerMachine::TriggerMachine(const Trigger& trigger) {
  Add(trigger);
  uses_processing_time_ = std::any_of(nodes_.begin(), nodes_.end(),
                                      [](const Node& n) { return n.kind == Trigger::Kind::kAfterProcessingTime; });
}

size_t TriggerMachine::Add(const Trigger& t) {
  const size_t n = nodes_.size();
  nodes_.push_back(Node{t.kind, t.count, t.delay, {}, -1, -1, 0});
  std::vector<size_t> children;
  for (const Trigger& child : t.children) children.push_back(Add(child));
  Node& node = nodes_[n];
  node.children = std::move(children);
  if (t.kind == Trigger::Kind::kAfterWatermark) {
    if (t.has_early) node.early = static_cast<int>(node.children.front());
    if (t.has_late) node.late = static_cast<int>(node.children.back());
  }
  node.end = nodes_.size();
  return n;
}

int TriggerMachine::FirstUnfinished(size_t n, const TriggerState& s) const {
  for (size_t c : nodes_[n].children) {
    if (!s[c].finished) return static_cast<int>(c);
  }
  return -1;
}

void TriggerMachine::Reset(size_t n, TriggerState& s) const {
  std::fill(s.begin() + static_cast<std::ptrdiff_t>(n), s.begin() + static_cast<std::ptrdiff_t>(nodes_[n].end),
            TriggerNodeState{});
}

void TriggerMachine::OnElement(size_t n, TriggerState& s, const TriggerContext& ctx) const {
  if (s[n].finished) return;
  const Node& node = nodes_[n];
  switch (node.kind) {
    case Trigger::Kind::kDefault: case Trigger::Kind::kNever: return;
    case Trigger::Kind::kAfterCount: ++s[n].count; return;
    case Trigger::Kind::kAfterProcessingTime:
      if (s[n].target == kEndOfTime) s[n].target = SaturatingAdd(ctx.processing_time, node.delay);
      return;
    case Trigger::Kind::kAfterWatermark: {
      const int phase = s[n].on_time_fired ? node.late : node.early;
      if (phase >= 0) OnElement(static_cast<size_t>(phase), s, ctx);
      return;
    }
    case Trigger::Kind::kAfterEach: {
      const int c = FirstUnfinished(n, s);
      if (c >= 0) OnElement(static_cast<size_t>(c), s, ctx);
      return;
    }
    case Trigger::Kind::kRepeatedly: case Trigger::Kind::kAfterAny: case Trigger::Kind::kAfterAll:
    case Trigger::Kind::kOrFinally:
      for (size_t c : node.children) OnElement(c, s, ctx);
      return;
  }
}

bool TriggerMachine::ShouldFire(size_t n, const TriggerState& s, const TriggerContext& ctx) const {
  if (s[n].finished) return false;
  const Node& node = nodes_[n];
  const bool past_end = ctx.watermark > ctx.window.max_timestamp();
  switch (node.kind) {
    case Trigger::Kind::kDefault: return past_end;
    case Trigger::Kind::kNever: return false;
    case Trigger::Kind::kAfterCount: return s[n].count >= node.count;
    case Trigger::Kind::kAfterProcessingTime: return s[n].target != kEndOfTime && ctx.processing_time >= s[n].target;
    case Trigger::Kind::kAfterWatermark:
      if (!s[n].on_time_fired) return past_end || (node.early >= 0 && ShouldFire(static_cast<size_t>(node.early), s, ctx));
      return node.late >= 0 && ShouldFire(static_cast<size_t>(node.late), s, ctx);
    case Trigger::Kind::kRepeatedly: return ShouldFire(node.children[0], s, ctx);
    case Trigger::Kind::kAfterAny:
      return std::any_of(node.children.begin(), node.children.end(), [&](size_t c) { return ShouldFire(c, s, ctx); });
    case Trigger::Kind::kAfterAll:
      return std::all_of(node.children.begin(), node.children.end(),
                         [&](size_t c) { return s[c].finished || ShouldFire(c, s, ctx); });
    case Trigger::Kind::kAfterEach: {
      const int c = FirstUnfinished(n, s);
      return c >= 0 && ShouldFire(static_cast<size_t>(c), s, ctx);
    }
    case Trigger::Kind::kOrFinally: return ShouldFire(node.children[0], s, ctx) || ShouldFire(node.children[1], s, ctx);
  }
  return false;
}

void TriggerMachine::OnFire(size_t n, TriggerState& s, const TriggerContext& ctx) const {
  const Node& node = nodes_[n];
  switch (node.kind) {
    case Trigger::Kind::kDefault: case Trigger::Kind::kNever: return;
    case Trigger::Kind::kAfterCount: case Trigger::Kind::kAfterProcessingTime: s[n].finished = true; return;
    case Trigger::Kind::kAfterWatermark:
      if (s[n].on_time_fired) {  // a late firing; the late trigger repeats
        OnFire(static_cast<size_t>(node.late), s, ctx);
        Reset(static_cast<size_t>(node.late), s);
      } else if (ctx.watermark > ctx.window.max_timestamp()) {  // the on-time pane
        s[n].on_time_fired = true;
        if (node.early >= 0) Reset(static_cast<size_t>(node.early), s);
        if (node.late >= 0) Reset(static_cast<size_t>(node.late), s);
        if (node.late < 0) s[n].finished = true;
      } else {  // an early firing; the early trigger repeats
        OnFire(static_cast<size_t>(node.early), s, ctx);
        Reset(static_cast<size_t>(node.early), s);
      }
      return;
    case Trigger::Kind::kRepeatedly:
      OnFire(node.children[0], s, ctx);
      if (s[node.children[0]].finished) Reset(node.children[0], s);
      return;
    case Trigger::Kind::kAfterAny:
      for (size_t c : node.children) {
        if (s[c].finished) continue;
        if (ShouldFire(c, s, ctx)) {
          OnFire(c, s, ctx);
        } else {
          Reset(c, s);  // the pane it was counting toward is gone
        }
      }
      s[n].finished = true;
      return;
    case Trigger::Kind::kAfterAll:
      for (size_t c : node.children) {
        if (!s[c].finished) OnFire(c, s, ctx);
      }
      s[n].finished = true;
      return;
    case Trigger::Kind::kAfterEach: {
      const int c = FirstUnfinished(n, s);
      if (c >= 0) OnFire(static_cast<size_t>(c), s, ctx);
      s[n].finished = FirstUnfinished(n, s) < 0;
      return;
    }
    case Trigger::Kind::kOrFinally:
      if (ShouldFire(node.children[1], s, ctx)) {
        s[n].finished = true;
      } else {
        OnFire(node.children[0], s, ctx);
        s[n].finished = s[node.children[0]].finished;
      }
      return;
  }
}

void TriggerMachine::Merge(TriggerState& into, const TriggerState& from) const {
  for (size_t i = 0; i < nodes_.size(); ++i) {
    TriggerNodeState& a = into[i];
    const TriggerNodeState& b = from[i];
    const Trigger::Kind kind = nodes_[i].kind;
    // A once-trigger that finished in any merged window stays finished (Beam's AfterPane and
    // AfterDelayFromFirstElement onMerge); any other node only when finished in all of them.
    const bool once = kind == Trigger::Kind::kAfterCount || kind == Trigger::Kind::kAfterProcessingTime;
    a.finished = once ? (a.finished || b.finished) : (a.finished && b.finished);
    a.on_time_fired = a.on_time_fired && b.on_time_fired;
    a.count += b.count;
    a.target = std::min(a.target, b.target);
  }
}

Millis TriggerMachine::NextProcessingTimer(const TriggerState& state) const {
  Millis next = kEndOfTime;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (nodes_[i].kind == Trigger::Kind::kAfterProcessingTime && !state[i].finished) next = std::min(next, state[i].target);
  }
  return next;
}

}  // namespace recflow::pipeline::window
