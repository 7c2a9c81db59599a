// IpcReadOptions: resource limits of the Arrow IPC batch decoder, IpcStreamReader and IpcFileReader.
#pragma once

#include <cstdint>
#include <memory>

#include "recflow/core/local_filesystem.h"
#include "recflow/core/status.h"

namespace recflow::arrow_ipc {

/// Limits of decoding record and dictionary batches.
struct IpcReadOptions {
  /// Most bytes the compressed buffers of one record batch (or one dictionary batch) may
  /// decompress to, summed over the batch. Checked before anything is decompressed against
  /// the buffers' uncompressed-length prefixes (and, where a frame header states its content
  /// size, against that too); a batch over it is a DataError. What is allocated never exceeds
  /// the declared lengths either, so the real bound is the smaller of the two.
  int64_t max_decompressed_batch_bytes = int64_t{2} << 30;
  /// Where OpenFile finds its file ("-", standard input, is always the process's own).
  std::shared_ptr<FileSystem> file_system = LocalFileSystem::Instance();

  /// 2 GiB of decompressed data per batch, local files.
  static IpcReadOptions Defaults() { return {}; }
  /// InvalidArgument unless the limit is positive and there is a file system.
  Status Validate() const;
};

}  // namespace recflow::arrow_ipc
