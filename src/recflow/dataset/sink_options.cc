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
  if (task.active()) {
    if (task.dir.empty()) return Status::InvalidArgument("a task attempt without a directory");
    if (!IsCanonicalUuid(task.job_id)) return Status::InvalidArgument("task job id '" + task.job_id + "' is not a UUID");
    if (task.index < 0 || task.index >= task.count) {
      return Status::InvalidArgument("task " + std::to_string(task.index) + " of " + std::to_string(task.count) +
                                     " is out of range");
    }
    if (sharding.kind != Sharding::Kind::kCount) {
      return Status::InvalidArgument("the tasks of a distributed job need a shard count (shards), not a limit per "
                                     "shard: their files are named from the task index");
    }
  }
  ShardNamer namer;
  namer.prefix = prefix;
  namer.naming = ShardNaming::kBeam;
  return namer.Validate();
}

}  // namespace recflow::dataset
