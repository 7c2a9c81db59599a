// ReadOptions validation for the Avro reader.
#include "recflow/formats/avro/read_options.h"

namespace recflow::avro {

Status ReadOptions::Validate() const {
  if (batch_rows < 1) return Status::InvalidArgument("avro batch_rows must be positive");
  if (max_block_bytes < 1) return Status::InvalidArgument("avro max_block_bytes must be positive");
  if (file_system == nullptr) return Status::InvalidArgument("avro read options without a file system");
  return Status::OK();
}

}  // namespace recflow::avro
