// RunInterruptibly: the job's thread signals a condition variable; the caller waits on it in slices, checking signals.
#include "recflow/python/interruptible.h"

#include <pybind11/pybind11.h>

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <thread>

namespace py = pybind11;

namespace recflow::python {

namespace {

/// How long Ctrl-C may wait before the waiting thread looks at it (a bound on its latency, not a synchronisation).
constexpr std::chrono::milliseconds kSignalCheckPeriod(50);

}  // namespace

Status RunInterruptibly(const std::function<Status(const StopToken&)>& job) {
  StopSource stop;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  Status status;
  bool interrupted = false;
  {
    const py::gil_scoped_release release;
    std::thread worker([&, token = stop.token()] {
      Status result = job(token);
      const std::lock_guard<std::mutex> lock(mutex);
      status = std::move(result);
      done = true;
      finished.notify_all();
    });
    std::unique_lock<std::mutex> lock(mutex);
    while (!finished.wait_for(lock, kSignalCheckPeriod, [&] { return done; })) {
      if (interrupted) continue;
      lock.unlock();
      {
        const py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) interrupted = true;  // the exception stays set until raised below
      }
      if (interrupted) stop.RequestStop(SIGINT);
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (interrupted) throw py::error_already_set();
  return status;
}

}  // namespace recflow::python
