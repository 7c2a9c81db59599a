// ServeOptions::Validate.
#include "recflow/serve/serve_options.h"

namespace recflow::serve {

Status ServeOptions::Validate() const {
  if (batch_mode != BatchMode::kAuto && batch_size < 1) return Status::InvalidArgument("batch size must be at least 1");
  if (inputs.empty()) return Status::InvalidArgument("nothing to serve");
  if (client_memory_bytes < (int64_t{1} << 20)) return Status::InvalidArgument("client memory must be at least 1 MiB");
  RETURN_NOT_OK(connections.Validate());
  return ipc.Validate();
}

}  // namespace recflow::serve
