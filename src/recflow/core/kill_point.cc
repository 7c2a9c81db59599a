// KillPoint: RECFLOW_KILL_AT read once; the named point counted; SIGKILL at the stated count.
#include "recflow/core/kill_point.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>

namespace recflow {

namespace {

struct Target {
  std::string name;  // empty: no kill point set
  long count = 0;
};

Target ReadTarget() {
  const char* value = std::getenv("RECFLOW_KILL_AT");
  if (value == nullptr) return {};
  const std::string text(value);
  const size_t colon = text.rfind(':');
  if (colon == std::string::npos) return {};
  return {text.substr(0, colon), std::strtol(text.c_str() + colon + 1, nullptr, 10)};
}

}  // namespace

void KillPoint(std::string_view name) {
  static const Target target = ReadTarget();
  static std::atomic<long> reached{0};
  if (target.name.empty() || name != target.name) return;
  if (reached.fetch_add(1) + 1 == target.count) ::kill(::getpid(), SIGKILL);
}

}  // namespace recflow
