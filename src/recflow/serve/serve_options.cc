// ServeOptions::Validate.
#include "recflow/serve/serve_options.h"

namespace recflow::serve {

Status ServeOptions::Validate() const {
  if (batch_mode != BatchMode::kAuto && batch_size < 1) return Status::InvalidArgument("batch size must be at least 1");
  if (inputs.empty()) return Status::InvalidArgument("nothing to serve");
  RETURN_NOT_OK(connections.Validate());
  return ipc.Validate();
}

}  // namespace recflow::serve
