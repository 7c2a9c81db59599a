// Window functions: assigning an event time to its windows.
#include "recflow/pipeline/window/window_fn.h"

namespace recflow::pipeline::window {

namespace {

// The start of the window of length `period` (starting at offset + k × period) that holds `t`.
Millis StartOf(Millis t, Millis period, Millis offset) {
  Millis rem = (t - offset) % period;
  if (rem < 0) rem += period;
  return t - rem;
}

}  // namespace

void WindowFn::Assign(Millis t, std::vector<Window>* out) const {
  out->clear();
  switch (kind) {
    case Kind::kGlobal: out->push_back(Window{kMinTime, kGlobalWindowEnd}); return;
    case Kind::kFixed: {
      const Millis start = StartOf(t, size, offset);
      out->push_back(Window{start, start + size});
      return;
    }
    case Kind::kSliding:
      for (Millis start = StartOf(t, period, offset); start > t - size; start -= period) {
        out->push_back(Window{start, start + size});
      }
      return;
    case Kind::kSessions: out->push_back(Window{t, SaturatingAdd(t, gap)}); return;
  }
}

std::string WindowFn::ToString() const {
  switch (kind) {
    case Kind::kGlobal: return "global";
    case Kind::kFixed:
      return "fixed(" + std::to_string(size) + "ms" + (offset != 0 ? ", offset " + std::to_string(offset) + "ms" : "") + ")";
    case Kind::kSliding:
      return "sliding(" + std::to_string(size) + "ms every " + std::to_string(period) + "ms)";
    case Kind::kSessions: return "sessions(gap " + std::to_string(gap) + "ms)";
  }
  return "";
}

}  // namespace recflow::pipeline::window
