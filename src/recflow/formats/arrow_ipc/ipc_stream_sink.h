// IpcStreamSink: a Sink writing its rows as one Arrow IPC stream to an OutputStream (a socket, stdout, a descriptor).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "recflow/columnar/rebatcher.h"
#include "recflow/core/io.h"
#include "recflow/formats/arrow_ipc/ipc_writer.h"
#include "recflow/formats/sink.h"

namespace recflow::arrow_ipc {

class DictionaryTracker;

/// How an IpcStreamSink cuts and encodes its batches.
struct IpcStreamSinkOptions {
  int64_t batch_rows = 1024;                   ///< rows per batch (ignored by BatchMode::kAuto)
  BatchMode batch_mode = BatchMode::kKeepRemainder;
  IpcWriteOptions ipc;                         ///< body compression
};

/// Writes the rows it is fed as one IPC stream, byte for byte what IpcWriter::OpenStream writes
/// for the same batches after rebatching: the schema message when opened; Merge (in order) cuts
/// the rows into batches of `batch_rows` (Rebatcher) and plans their dictionary batches
/// (first use, delta or replacement); Process encodes the messages (bodies compressed) on any
/// thread; Emit writes them in order in one gathered write (OutputStream::WriteGathered), the
/// bodies uncopied; Finish writes end-of-stream and flushes. The bytes depend on the rows and their order only, never on the thread count.
/// A failed write makes every later Emit and Finish return that error (nothing more is written).
class IpcStreamSink final : public Sink {
 public:
  /// Writes the schema message of `schema` to `out` (borrowed; it must outlive the sink).
  static Result<std::unique_ptr<IpcStreamSink>> Open(OutputStream* out, SchemaPtr schema,
                                                     const IpcStreamSinkOptions& options);
  ~IpcStreamSink() override;

  Result<std::unique_ptr<SinkPartial>> Consume(SinkLocalState* local,
                                                const std::shared_ptr<RecordBatch>& batch) const override;
  Status Merge(SinkPartial* partial) override;
  Status Process(SinkPartial* partial) const override;
  Status Emit(SinkPartial* partial) override;
  Result<std::unique_ptr<SinkPartial>> Drain() override;
  /// Writes end-of-stream and flushes `out` (does not close it). Once; later calls do nothing.
  Status Finish() override;

  /// The rows merged and waiting to fill a batch, as slices of the batches they came from.
  const std::vector<std::shared_ptr<RecordBatch>>& pending() const { return rebatcher_.pending(); }
  /// Bytes written to `out` so far.
  int64_t bytes_written() const { return out_->position() - start_; }

 private:
  IpcStreamSink(OutputStream* out, SchemaPtr schema, const IpcStreamSinkOptions& options);
  /// `st`, remembered when it is the first failure of `out`.
  Status Remember(Status st);

  OutputStream* out_;
  SchemaPtr schema_;
  IpcWriteOptions ipc_;
  int64_t start_;
  Rebatcher rebatcher_;
  std::unique_ptr<DictionaryTracker> dictionaries_;  // what the stream holds so far
  bool finished_ = false;
  Status error_;  // the first failed write: the stream is cut there
};

}  // namespace recflow::arrow_ipc
