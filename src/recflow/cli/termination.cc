// The termination thread: sigwait; request a drain or a stop, or when that is refused remove unfinished outputs and _exit.
#include "recflow/cli/termination.h"

#include <fmt/core.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

#include "recflow/dataset/staging_registry.h"

namespace recflow::cli {

namespace {

const char* SignalName(int signal_number) { return signal_number == SIGINT ? "SIGINT" : "SIGTERM"; }

// Writes `message` on stderr (on a terminal after a line break, leaving the progress bar's line as it was), only when
// stderr has room: a full pipe nobody reads (serve's log) must not keep the signal thread from the next signal.
void SayIfRoom(std::string message) {
  if (isatty(STDERR_FILENO) == 1) message.insert(0, "\n");
  pollfd err{STDERR_FILENO, POLLOUT, 0};
  if (::poll(&err, 1, 0) == 1 && (err.revents & POLLOUT) != 0) {
    (void)!::write(STDERR_FILENO, message.data(), message.size());
  }
}

// The hard path: removes every unfinished output, says so and exits with 128 + `signal_number`.
[[noreturn]] void RemoveOutputsAndExit(int signal_number) {
  const std::vector<std::string> removed = dataset::RemoveUnfinishedOutputs();
  std::string message = fmt::format("recflow: interrupted by {}", SignalName(signal_number));
  for (const std::string& line : removed) message += "; " + line;
  SayIfRoom(message + "\n");
  ::_exit(128 + signal_number);
}

}  // namespace

TerminationTokens HandleTerminationSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  StopSource stop;
  StopSource drain;
  auto drain_first = std::make_shared<std::atomic<bool>>(false);
  std::thread([signals, stop, drain, drain_first]() mutable {
    for (;;) {
      int signal_number = 0;
      if (sigwait(&signals, &signal_number) != 0) continue;
      if (drain_first->load() && drain.RequestStop(signal_number)) {
        SayIfRoom(fmt::format("recflow: {}: draining (every open window fires, then the outputs commit); "
                              "a second signal cancels\n",
                              SignalName(signal_number)));
        continue;
      }
      if (!stop.RequestStop(signal_number)) RemoveOutputsAndExit(signal_number);
    }
  }).detach();
  return {stop.token(), drain.token(), std::move(drain_first)};
}

}  // namespace recflow::cli
