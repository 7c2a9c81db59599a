// The termination thread: sigwait; request a stop, or when that is refused remove unfinished outputs and _exit.
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

// The hard path: removes every unfinished output, says so and exits with 128 + `signal_number`.
[[noreturn]] void RemoveOutputsAndExit(int signal_number) {
  const std::vector<std::string> removed = dataset::RemoveUnfinishedOutputs();
  // On a terminal, the progress bar's line is left as it was.
  std::string message = isatty(STDERR_FILENO) == 1 ? "\n" : "";
  message += fmt::format("recflow: interrupted by {}", signal_number == SIGINT ? "SIGINT" : "SIGTERM");
  for (const std::string& line : removed) message += "; " + line;
  message += "\n";
  // Written only when stderr has room: a full pipe nobody reads (serve's log) must not keep a
  // process the user wants gone.
  pollfd err{STDERR_FILENO, POLLOUT, 0};
  if (::poll(&err, 1, 0) == 1 && (err.revents & POLLOUT) != 0) {
    (void)!::write(STDERR_FILENO, message.data(), message.size());
  }
  ::_exit(128 + signal_number);
}

}  // namespace

StopToken HandleTerminationSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  StopSource source;
  std::thread([signals, source]() mutable {
    for (;;) {
      int signal_number = 0;
      if (sigwait(&signals, &signal_number) != 0) continue;
      if (!source.RequestStop(signal_number)) RemoveOutputsAndExit(signal_number);
    }
  }).detach();
  return source.token();
}

}  // namespace recflow::cli
