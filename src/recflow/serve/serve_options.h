// ServeOptions: what `recflow serve` serves (inputs, columns, batches, memory per pass) and how it treats clients.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "recflow/core/result.h"
#include "recflow/dataset/dataset_source.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/serve/connection_server.h"
#include "recflow/columnar/rebatcher.h"

namespace recflow::serve {

/// Rows per served batch unless asked otherwise. Clients that cut their own training batches
/// (TensorFlow I/O's ArrowStreamDataset with its default batch_mode keep_remainder, a PyTorch
/// DataLoader over the stream) pay per message, not per row, so fewer, larger messages serve
/// them faster: measured over 4 M numeric rows, Arrow JS reads 1.8× faster at 16 384 rows than
/// at 1024 and C++ decoding is fastest there; 65 536 rows gain Arrow JS a little more but would
/// put rows of 1 KiB at the 64 MiB per-client cap (the rows waiting to fill a batch count
/// there), where 16 384 leaves room for rows of 4 KiB. A client that takes the server's batches
/// as its training batches (TensorFlow I/O's batch_mode auto) sets --batch-size to that size.
/// See docs/serve.md ("Batch size") and BENCHMARKS.md.
inline constexpr int64_t kDefaultBatchRows = 16384;

/// What a server serves and how.
struct ServeOptions {
  std::vector<std::string> inputs;         ///< anything dataset::OpenInputs reads
  dataset::InputOptions input_options;    ///< formats, CSV dialect, schema
  int64_t batch_size = kDefaultBatchRows;  ///< rows per batch (not with kAuto)
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

  /// Batches of kDefaultBatchRows rows, keep_remainder, all columns, uncompressed, 64 MiB per client, and
  /// ConnectionOptions::Defaults().
  static ServeOptions Defaults() { return {}; }
  /// Checks sizes, the batch size against the mode and the connection options.
  Status Validate() const;
};

}  // namespace recflow::serve
