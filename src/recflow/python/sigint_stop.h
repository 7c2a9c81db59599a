// SigintStop: while a Python thread waits in native code for a read's next batch, SIGINT requests a stop of that read
// before Python's own handler (which only sets a flag the waiting thread would see after the wait) runs.
#pragma once

#include "recflow/core/stop_token.h"

namespace recflow::python {

/// While alive, a SIGINT requests a stop on `source` (naming SIGINT) and then runs the handler
/// that was installed before (Python's, which records the signal for PyErr_CheckSignals). The
/// process's SIGINT handler is wrapped while any SigintStop lives and restored after the last one;
/// nothing is wrapped when SIGINT is ignored or has its default action (the user chose so).
/// StopSource::RequestStop is lock-free, so the handler may call it. Any thread; several at once.
class SigintStop {
 public:
  explicit SigintStop(StopSource source);
  ~SigintStop();
  SigintStop(const SigintStop&) = delete;
  SigintStop& operator=(const SigintStop&) = delete;

 private:
  StopSource source_;
  int slot_ = -1;  ///< its place among the sources the handler stops; -1: none (too many, or not wrapped)
};

}  // namespace recflow::python
