// The termination thread: sigwait, remove unfinished outputs, report, _exit(128 + signal).
#include "recflow/cli/termination.h"

#include <fmt/core.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "recflow/dataset/staging_registry.h"

namespace recflow::cli {

void HandleTerminationSignals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  std::thread([signals] {
    int signal_number = 0;
    while (sigwait(&signals, &signal_number) != 0) {
    }
    const std::vector<std::string> removed = dataset::RemoveUnfinishedOutputs();
    // On a terminal, the progress bar's line is left as it was.
    std::string message = isatty(STDERR_FILENO) == 1 ? "\n" : "";
    message += fmt::format("recflow: interrupted by {}", signal_number == SIGINT ? "SIGINT" : "SIGTERM");
    for (const std::string& line : removed) message += "; " + line;
    fmt::print(stderr, "{}\n", message);
    std::fflush(stderr);
    ::_exit(128 + signal_number);
  }).detach();
}

}  // namespace recflow::cli
