// IpcReadOptions::Validate.
#include "recflow/formats/arrow_ipc/ipc_read_options.h"

namespace recflow::arrow_ipc {

Status IpcReadOptions::Validate() const {
  if (max_decompressed_batch_bytes <= 0) {
    return Status::InvalidArgument("arrow ipc: max_decompressed_batch_bytes must be positive");
  }
  if (file_system == nullptr) return Status::InvalidArgument("arrow ipc: read options without a file system");
  return Status::OK();
}

}  // namespace recflow::arrow_ipc
