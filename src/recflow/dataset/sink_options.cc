// SinkOptions::Validate.
#include "recflow/dataset/sink_options.h"

namespace recflow::dataset {

Status SinkOptions::Validate() const {
  if (output.empty()) return Status::InvalidArgument("the output directory is empty");
  if (!format) return Status::InvalidArgument("no output format");
  if (level < -1 || level > 9) return Status::InvalidArgument("compression level must be -1..9");
  if (sharding.value < 1) return Status::InvalidArgument("the shard count or limit must be at least 1");
  if (chunk_bytes < 1 || max_pending_bytes < chunk_bytes) {
    return Status::InvalidArgument("chunk_bytes must be >= 1 and <= max_pending_bytes");
  }
  if (max_open_files < 1) return Status::InvalidArgument("max_open_files must be >= 1");
  ShardNamer namer;
  namer.prefix = prefix;
  namer.naming = ShardNaming::kBeam;
  return namer.Validate();
}

}  // namespace recflow::dataset
