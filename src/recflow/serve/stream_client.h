// StreamClient: connects to a `recflow serve` endpoint and reads one pass as record batches.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "recflow/columnar/record_batch.h"
#include "recflow/core/result.h"
#include "recflow/formats/arrow_ipc/ipc_stream_reader.h"

namespace recflow::serve {

/// A client of one pass: the IPC stream a server sends on one connection.
class StreamClient {
 public:
  /// Connects to `endpoint` (tcp://, HOST:PORT, [IPV6]:PORT, unix://) and reads the schema. A
  /// refusal (a server that is full or stopping; see refusal.h) is an IOError with its reason.
  static Result<std::unique_ptr<StreamClient>> Connect(std::string_view endpoint);
  /// The served schema.
  const SchemaPtr& schema() const { return reader_->schema(); }
  /// The next batch (validated), or nullptr when the pass is complete. A connection that ends
  /// before the end-of-stream marker is an error.
  Result<std::shared_ptr<RecordBatch>> Next() { return reader_->Next(); }
  /// Bytes of the stream read from the server so far.
  int64_t bytes_received() const { return reader_->bytes_read(); }

 private:
  explicit StreamClient(std::unique_ptr<arrow_ipc::IpcStreamReader> reader) : reader_(std::move(reader)) {}
  std::unique_ptr<arrow_ipc::IpcStreamReader> reader_;
};

}  // namespace recflow::serve
