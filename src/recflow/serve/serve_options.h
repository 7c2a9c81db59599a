// ServeOptions: what `recflow serve` serves (inputs, columns, batches, memory per pass) and how it treats clients.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/formats/arrow_ipc/ipc_stream_sink.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/serve/connection_server.h"
#include "recflow/columnar/rebatcher.h"

namespace recflow::serve {

/// What a server serves and how.
struct ServeOptions {
  std::vector<std::string> inputs;         ///< anything dataset::OpenInputs reads
  dataset::InputOptions input_options;    ///< formats, CSV dialect, schema
  int64_t batch_size = arrow_ipc::kDefaultStreamBatchRows;  ///< rows per batch (not with kAuto)
  BatchMode batch_mode = BatchMode::kKeepRemainder;
  std::vector<std::string> columns;        ///< columns to serve, in order; empty = all
  std::vector<std::string> standard_scale; ///< numeric columns standardized (fitted once, over a first pass)
  arrow_ipc::IpcWriteOptions ipc;          ///< body compression of the served stream
  /// What one pass (one client) may hold waiting to be sent (ClientMemoryCap), checked as each
  /// input unit's rows reach the stream: the memory they keep alive (HeldBytes), the rows
  /// waiting to fill a batch and the send buffer. A pass that would hold more stops with an
  /// OutOfMemory error naming the input file and row. Not a bound on the units in flight nor
  /// on the moment a unit decodes (about the unit's size more).
  int64_t client_memory_bytes = int64_t{64} << 20;
  ConnectionOptions connections;           ///< admission, waiting, send timeout, log

  /// Batches of arrow_ipc::kDefaultStreamBatchRows rows, keep_remainder, all columns, uncompressed, 64 MiB per client, and
  /// ConnectionOptions::Defaults().
  static ServeOptions Defaults() { return {}; }
  /// Checks sizes, the batch size against the mode and the connection options.
  Status Validate() const;
};

}  // namespace recflow::serve
