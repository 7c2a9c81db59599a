// ExecContext: validation and the thread count it resolves to.
#include "recflow/core/exec_context.h"

#include <algorithm>
#include <thread>

namespace recflow {

Status ExecContext::Validate() const {
  if (threads < 0) return Status::InvalidArgument("threads must be >= 0");
  if (file_system == nullptr) return Status::InvalidArgument("an ExecContext without a file system");
  if (memory_pool == nullptr) return Status::InvalidArgument("an ExecContext without a memory pool");
  return Status::OK();
}

int ExecContext::ResolvedThreads() const {
  return threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace recflow
